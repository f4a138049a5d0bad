import type { Writable } from "node:stream";

// Just enough of the POSIX ustar format for station archives: regular files
// only, written and read as a stream, readable by any `tar` tool.

const BLOCK = 512;

export class TarFormatError extends Error {
  name = "TarFormatError";
}

function splitName(name: string): { prefix: string; base: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: "", base: name };
  // Long paths go in the 155-byte prefix field, cut at a "/".
  for (let cut = name.lastIndexOf("/"); cut > 0; cut = name.lastIndexOf("/", cut - 1)) {
    const prefix = name.slice(0, cut);
    const base = name.slice(cut + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(base) <= 100) return { prefix, base };
  }
  throw new TarFormatError(`The name ${name} is too long for the archive`);
}

function header(name: string, size: number, mtime: Date): Buffer {
  const block = Buffer.alloc(BLOCK);
  const { prefix, base } = splitName(name);
  const field = (value: string, offset: number, length: number) => block.write(value, offset, length, "utf8");
  const octal = (value: number, offset: number, length: number) => field(value.toString(8).padStart(length - 1, "0") + "\0", offset, length);
  field(base, 0, 100);
  octal(0o644, 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(size, 124, 12);
  octal(Math.floor(mtime.getTime() / 1000), 136, 12);
  field("        ", 148, 8);
  field("0", 156, 1);
  field("ustar\0", 257, 6);
  field("00", 263, 2);
  field(prefix, 345, 155);
  const checksum = block.reduce((sum, byte) => sum + byte, 0);
  field(checksum.toString(8).padStart(6, "0") + "\0 ", 148, 8);
  return block;
}

function padding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/** Writes entries to `out` (e.g. a gzip stream), honouring backpressure. */
export class TarWriter {
  constructor(private readonly out: Writable) {}

  private async write(chunk: Buffer): Promise<void> {
    if (!this.out.write(chunk)) {
      await new Promise<void>((resolve, reject) => {
        const done = (error?: Error) => {
          this.out.off("drain", done);
          this.out.off("error", done);
          if (error) reject(error);
          else resolve();
        };
        this.out.once("drain", done).once("error", done);
      });
    }
  }

  /** Adds one file; `body` may be a stream, which must yield exactly `size` bytes. */
  async add(name: string, size: number, body: Buffer | AsyncIterable<Buffer | string>, mtime = new Date()): Promise<void> {
    await this.write(header(name, size, mtime));
    let written = 0;
    if (Buffer.isBuffer(body)) {
      await this.write(body);
      written = body.length;
    } else {
      for await (const chunk of body) {
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
        written += bytes.length;
        if (written > size) throw new TarFormatError(`${name} is larger than its announced ${size} bytes`);
        await this.write(bytes);
      }
    }
    if (written !== size) throw new TarFormatError(`${name} has ${written} bytes, not the announced ${size}`);
    await this.write(padding(size));
  }

  /** The two empty blocks that end an archive. */
  async finish(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
  }
}

/** Collects incoming chunks and hands out exact byte counts without copying more than needed. */
class ByteQueue {
  private chunks: Buffer[] = [];
  length = 0;

  push(chunk: Buffer) {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  take(count: number): Buffer {
    const out = Buffer.allocUnsafe(count);
    let filled = 0;
    while (filled < count) {
      const head = this.chunks[0]!;
      const used = Math.min(head.length, count - filled);
      head.copy(out, filled, 0, used);
      filled += used;
      if (used === head.length) this.chunks.shift();
      else this.chunks[0] = head.subarray(used);
    }
    this.length -= count;
    return out;
  }
}

function parseHeader(block: Buffer): { name: string; size: number } {
  const text = (offset: number, length: number) => block.toString("utf8", offset, offset + length).replace(/\0.*$/s, "");
  const expected = parseInt(text(148, 8).trim(), 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
  if (sum !== expected || !text(257, 6).startsWith("ustar")) throw new TarFormatError("The archive is damaged or is not a tar file");
  const type = text(156, 1);
  if (type !== "0" && type !== "") throw new TarFormatError(`The archive holds something other than plain files (type ${type})`);
  const prefix = text(345, 155);
  const base = text(0, 100);
  return { name: prefix ? `${prefix}/${base}` : base, size: parseInt(text(124, 12).trim(), 8) };
}

/** The entries of a tar stream, one whole file at a time. Throws TarFormatError on damage or truncation. */
export async function* readTar(input: AsyncIterable<Buffer>): AsyncGenerator<{ name: string; body: Buffer }> {
  const queue = new ByteQueue();
  let entry: { name: string; size: number } | null = null;
  for await (const chunk of input) {
    queue.push(chunk);
    for (;;) {
      if (!entry) {
        if (queue.length < BLOCK) break;
        const block = queue.take(BLOCK);
        if (block.every((byte) => byte === 0)) return;
        entry = parseHeader(block);
      } else {
        const padded = Math.ceil(entry.size / BLOCK) * BLOCK;
        if (queue.length < padded) break;
        const body = queue.take(padded).subarray(0, entry.size);
        const name = entry.name;
        entry = null;
        yield { name, body };
      }
    }
  }
  throw new TarFormatError("The archive is truncated");
}
