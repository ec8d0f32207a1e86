import { JSONRPCErrorException } from 'json-rpc-2.0';
import { JsonRpcCodes } from '../../contracts/errors.ts';

/** A JSON-RPC error with a code from the shared table (SPEC "JSON-RPC codes"). */
export function rpcError(code: keyof typeof JsonRpcCodes, message: string, data?: unknown): JSONRPCErrorException {
  return new JSONRPCErrorException(message, JsonRpcCodes[code], data);
}
