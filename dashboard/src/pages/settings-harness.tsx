import { Page } from '../ui/common.tsx';

export function HarnessSettings() {
  return <Page title="Harness">Not built yet.</Page>;
}
