import { Page } from '../ui/common.tsx';

export function Component() {
  return <Page title="project">Not built yet.</Page>;
}
