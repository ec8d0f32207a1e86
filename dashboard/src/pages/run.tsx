import { Page } from '../ui/common.tsx';

export function Component() {
  return <Page title="run">Not built yet.</Page>;
}
