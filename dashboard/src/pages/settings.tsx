/**
 * Settings: the gateway address (local storage; saving clears the query cache, SPEC dashboard rule 8) and, once the
 * gateway has the harness routes, credentials and model selection (keys go to the gateway, never into the browser).
 */
import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { gatewayAddress, setGatewayAddress } from '../api/gateway.ts';
import { Page } from '../ui/common.tsx';
import { HarnessSettings } from './settings-harness.tsx';
import { Section } from '../ui/section.tsx';

export function Component() {
  const queryClient = useQueryClient();
  const [address, setAddress] = useState(gatewayAddress());
  const [saved, setSaved] = useState<string | null>(null);

  const save = (e: FormEvent) => {
    e.preventDefault();
    setGatewayAddress(address);
    queryClient.clear();
    setSaved(address.trim() || `this page's origin (${location.origin})`);
  };

  return (
    <Page title="Settings">
      <Section id="gw-h" panel title="Gateway">
        <form className="toolbar" onSubmit={save}>
          <label>
            Gateway address
            <input
              name="gateway"
              value={address}
              onChange={(e) => setAddress(e.target.value)}
              placeholder={location.origin}
              size={40}
              inputMode="url"
            />
          </label>
          <button type="submit" className="primary">
            Save
          </button>
        </form>
        <p className="muted">Empty means the gateway that served this page. Saving clears every cached answer.</p>
        {saved && (
          <p role="status" data-testid="settings-saved">
            Saved: {saved}.
          </p>
        )}
      </Section>
      <HarnessSettings />
    </Page>
  );
}
