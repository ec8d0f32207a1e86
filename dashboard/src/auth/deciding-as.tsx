/**
 * Who a decision will be credited to, shown in the decision form while a person is signed in (issue 29 point 4). The
 * gateway records the approver from the token, never from the form: this line only says so.
 */
import { useSession } from './session.ts';

export function DecidingAs() {
  const session = useSession();
  if (!session) return null;
  return (
    <p className="muted" data-testid="deciding-as">
      Deciding as {session.name}
      {session.email && session.email !== session.name ? ` (${session.email})` : ''}
    </p>
  );
}
