import { call, type Caller } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import { HoldsActions } from '../../contracts/actions/approvals.actions.ts';
import {
  TwinApprovalActions,
  NodeApprovalKindSchema,
  type NodeApprovalKind,
} from '../../contracts/actions/twin-approvals.actions.ts';
import { LedgerKindSchema, type ApprovalKind, type LedgerKind } from '../../contracts/approvals.ts';
import { gateItem, ledgerItem, nodeItem } from './approval.items.ts';
import type { SourceItem } from './approval.machine.ts';
import type { createGateSource } from './sources/gates.source.ts';
import { listLedger } from './sources/ledger.source.ts';

type Status = 'pending' | 'decided' | 'all';

/** The sources the queue reads (the ledger is read through `holds.queueLedger` directly). */
export interface QueueSources {
  gates: ReturnType<typeof createGateSource>;
}

const LEDGER_KINDS = LedgerKindSchema.options;
const NODE_KINDS = NodeApprovalKindSchema.options;
const matches = (status: Status) => (i: SourceItem) =>
  status === 'all' ? true : status === 'pending' ? i.status === 'pending' : i.status !== 'pending';
const newestFirst = (a: SourceItem, b: SourceItem) =>
  (b.created_at ?? '').localeCompare(a.created_at ?? '') || a.id.localeCompare(b.id);

/** Splits `<prefix>:<native id>`; undefined for an id that names no source (a 404). */
export function parseApprovalId(
  id: string,
): { prefix: 'gate' | 'tool' | 'change' | 'design_loop' | 'sketch' | 'drawing'; native: string } | undefined {
  const m = /^(gate|tool|change|design_loop|sketch|drawing):(.+)$/.exec(id);
  return m ? { prefix: m[1] as 'gate', native: m[2] } : undefined;
}

/**
 * The read side of the queue: every source's items normalized (SPEC "Approval item"), filtered by status, project and
 * kind, newest first, with the count of items left out because they have no project. Sources are read in parallel.
 */
export async function listItems(
  via: Caller,
  src: QueueSources,
  q: { status: Status; project_id?: string; kind?: ApprovalKind },
): Promise<{ items: SourceItem[]; unscoped: number }> {
  const wantGates = !q.kind || q.kind === 'gate';
  const ledgerKinds: LedgerKind[] | null = !q.kind
    ? null
    : (LEDGER_KINDS as readonly string[]).includes(q.kind)
      ? [q.kind as LedgerKind]
      : [];
  const nodeKinds: NodeApprovalKind[] = !q.kind
    ? [...NODE_KINDS]
    : (NODE_KINDS as readonly string[]).includes(q.kind)
      ? [q.kind as NodeApprovalKind]
      : [];
  const scoped = q.project_id !== undefined;
  const gateItems = async (scope: string | null | undefined) =>
    wantGates
      ? (await src.gates.list(via, q.status, scope))
          .map(gateItem)
          .filter((i): i is SourceItem => i !== null)
          .filter(matches(q.status))
      : [];
  const [gates, ledger, nodes, unscopedGates] = await Promise.all([
    gateItems(q.project_id),
    ledgerKinds?.length === 0
      ? { records: [], unscoped: 0 }
      : listLedger(via, q.status, q.project_id, ledgerKinds ?? undefined, scoped),
    nodeKinds.length
      ? call(via, TwinApprovalActions.nodes, {
          kinds: nodeKinds,
          status: q.status,
          project_id: q.project_id,
          count_unscoped: scoped,
        })
      : { nodes: [], unscoped_count: 0 },
    !scoped || !wantGates
      ? 0
      : q.status === 'pending'
        ? src.gates.countPendingUnscoped(via)
        : gateItems(null).then((i) => i.length),
  ]);
  const items = [
    ...gates,
    ...ledger.records.map(ledgerItem),
    ...nodes.nodes.map(nodeItem).filter((i): i is SourceItem => i !== null),
  ];
  return { items: items.sort(newestFirst), unscoped: unscopedGates + ledger.unscoped + nodes.unscoped_count };
}

/**
 * One item by its approval id, read from its owner; NOT_FOUND for an unknown id or a node of another kind. For a
 * decision (`deciding`), a run that exists but never reached a gate is CONFLICT: it has no gate to decide yet.
 */
export async function loadItem(via: Caller, src: QueueSources, id: string, deciding = false): Promise<SourceItem> {
  const parsed = parseApprovalId(id);
  if (!parsed) throw ActorError.notFound('approval', id);
  const missing = () => ActorError.notFound('approval', id);
  if (parsed.prefix === 'gate') {
    const input = await src.gates.one(parsed.native);
    const item = input ? gateItem(input) : null;
    if (!item && input && deciding)
      throw new ActorError('CONFLICT', `run ${parsed.native} has no open gate (${input.view.status})`, {
        approval_id: id,
        kind: 'gate',
      });
    if (!item) throw missing();
    return item;
  }
  if (parsed.prefix === 'tool') {
    const rec = await call(via, HoldsActions.get, { id: parsed.native }).catch((err: unknown) => {
      throw err instanceof ActorError && err.type === 'NOT_FOUND' ? missing() : err;
    });
    return ledgerItem(rec);
  }
  const node = await call(via, TwinApprovalActions.node, { node_id: parsed.native }).catch((err: unknown) => {
    throw err instanceof ActorError && err.type === 'NOT_FOUND' ? missing() : err;
  });
  const item = nodeItem(node);
  if (!item || item.id !== id) throw missing();
  return item;
}
