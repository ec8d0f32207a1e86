/** The registry's argument validator lives in brokers/ so the harness (model tool calls) applies the very same check. */
export { ArgValidator, type ArgCheck } from '../../brokers/tool-args.ts';
