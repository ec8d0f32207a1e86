/** A 1x1 red PNG (8-bit RGB), base64: the smallest image the conformance suite's image checks accept. */
export const RED_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

/**
 * A short RIFF/WAVE file (PCM, mono, 16-bit, 8 kHz) of `samples` samples of a quiet square wave, base64. Built rather
 * than embedded, so its header is visibly right: 44 header bytes, then the samples little-endian.
 */
export function tinyWav(samples = 80): string {
  const rate = 8000;
  const dataBytes = samples * 2;
  const b = Buffer.alloc(44 + dataBytes);
  b.write('RIFF', 0, 'ascii');
  b.writeUInt32LE(36 + dataBytes, 4);
  b.write('WAVE', 8, 'ascii');
  b.write('fmt ', 12, 'ascii');
  b.writeUInt32LE(16, 16); // fmt chunk size
  b.writeUInt16LE(1, 20); // PCM
  b.writeUInt16LE(1, 22); // mono
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate * 2, 28); // byte rate
  b.writeUInt16LE(2, 32); // block align
  b.writeUInt16LE(16, 34); // bits per sample
  b.write('data', 36, 'ascii');
  b.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < samples; i++) b.writeInt16LE(i % 20 < 10 ? 1000 : -1000, 44 + i * 2);
  return b.toString('base64');
}
