export { createWebAdapter } from './web.adapter.ts';
export { htmlToText, htmlTitle, decodeEntities } from './html.ts';
