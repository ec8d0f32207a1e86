import moleculer, { type Context } from 'moleculer';
import { adapterOfInvoke, LEAST_IN_FLIGHT_STRATEGY } from '../contracts/actions/adapter-load.ts';
import { boardOf } from './load-board.ts';

type Endpoint = Parameters<moleculer.Strategies.Base['select']>[0][number];

/**
 * Moleculer balancing strategy of the adapters' `invoke`: the replica with the fewest calls in flight (as the caller's
 * LoadBoard knows them: published by the adapter nodes, and counted for its own calls), a tie broken at random. A long
 * call never lands behind a busy solver while another replica idles; round robin would. An action that is not an
 * adapter's invoke, or a broker with no board, falls back to a random choice.
 */
export class LeastInFlightStrategy extends moleculer.Strategies.Base {
  override select(list: Endpoint[], ctx?: Context): Endpoint {
    const name = (list[0] as unknown as { action?: { name?: string } }).action?.name ?? ctx?.action?.name ?? '';
    const adapterId = adapterOfInvoke(name);
    const board = boardOf(this.broker);
    if (!adapterId || !board) return list[Math.floor(Math.random() * list.length)]!;
    const id = board.pick(
      adapterId,
      list.map((ep) => ep.id),
    );
    return list.find((ep) => ep.id === id) ?? list[0]!;
  }
}

// Registered by name: the strategy travels as a string in the adapters' action definitions (every node resolves it).
moleculer.Strategies.register(LEAST_IN_FLIGHT_STRATEGY, LeastInFlightStrategy as unknown as moleculer.Strategies.Base);
