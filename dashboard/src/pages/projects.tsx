import { Page } from '../ui/common.tsx';

export function Component() {
  return <Page title="projects">Not built yet.</Page>;
}
