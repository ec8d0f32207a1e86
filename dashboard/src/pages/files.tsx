import { Page } from '../ui/common.tsx';

export function Component() {
  return <Page title="files">Not built yet.</Page>;
}
