import { Page } from '../ui/common.tsx';

export function Component() {
  return <Page title="twin">Not built yet.</Page>;
}
