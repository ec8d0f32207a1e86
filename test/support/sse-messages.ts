/** Reads the JSON-RPC messages of an SSE response one at a time (the `data:` lines of each event, parsed). */
export function sseMessages(body: ReadableStream<Uint8Array>): { next(): Promise<any>; close(): Promise<void> } {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const queue: unknown[] = [];
  return {
    close: () => reader.cancel(),
    async next() {
      for (;;) {
        if (queue.length) return queue.shift();
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trimStart())
            .join('\n');
          if (data) queue.push(JSON.parse(data));
        }
      }
    },
  };
}
