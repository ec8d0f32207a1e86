import { Page } from '../ui/common.tsx';

export function Component() {
  return <Page title="run-new">Not built yet.</Page>;
}
