/**
 * An upstream answer's whole body while it fits `limit` bytes, or null as soon as it (or its declared
 * length) is larger: nothing past the limit is read or kept. The body is always released.
 */
export async function readResponseWithin(response: Response, limit: number): Promise<Buffer | null> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (!response.body || declared > limit) {
    await response.body?.cancel().catch(() => {});
    return declared > limit ? null : Buffer.alloc(0);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) return Buffer.concat(chunks, size);
      size += value.length;
      if (size > limit) return null;
      chunks.push(value);
    }
  } finally {
    void reader.cancel().catch(() => {});
  }
}
