import { Page } from '../ui/common.tsx';

export function Component() {
  return <Page title="bom">Not built yet.</Page>;
}
