import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { none } from 'stream-chain/defs.js';
import { Assembler } from 'stream-json/core/assembler.js';
import { jsonParser, type Token } from 'stream-json/core/parser.js';

/*
 * The catalog file read as a stream: one product at a time, never the whole file.
 *
 * stream-json (pinned, with its stream-chain) is the parser: its tokenizer and assembler
 * are used bare, without the Node stream pipeline around them, which parses the 241 MB
 * file of 100,000 products in about 6 s (the piped form took 31 s, and
 * @streamparser/json-node 61 s while it kept every emitted product in its parent array,
 * 800 MB). Its README warns that it is built for trusted input: its output goes through
 * the same JSON Schema as a parsed file before anything uses it, and the admin route
 * that streams request bodies into it takes authenticated operators only.
 */

/** The top-level members that are read whole; any other is unknown and skipped (the schema rejects it). */
const HEADER_MEMBERS = new Set(['$schema', 'version', 'regions', 'categories', 'collections']);

/** The file is not JSON (or not UTF-8); `path` is where reading stopped, as near as it can be told. */
export class CatalogFileSyntaxError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * What stands in for a value that is not read whole: an empty container of the same
 * kind, or the scalar itself. Whether `products` is an array is all the schema asks of
 * it, and unknown members are rejected whatever they hold.
 */
export function placeholderOf(value: unknown): unknown {
  if (Array.isArray(value)) return [];
  return typeof value === 'object' && value !== null ? {} : value;
}

const PLACEHOLDER_OF_START: Partial<Record<Token['name'], () => unknown>> = { startArray: () => [], startObject: () => ({}) };

/**
 * A catalog file read front to back: `products()` yields its products one by one;
 * `header` is the file without them (`products` replaced by a placeholder) as far as it
 * has been read, so it is complete once `products()` has finished.
 */
export class CatalogFileStream {
  bytesRead = 0;
  private tokens = new TokenReader();

  private constructor(
    readonly path: string,
    /** The file's size in bytes when it was opened. */
    readonly size: number,
  ) {}

  static async open(path: string): Promise<CatalogFileStream> {
    return new CatalogFileStream(path, (await stat(path)).size);
  }

  get header(): unknown {
    return this.tokens.header;
  }

  /** Reads the file (again) from its start. */
  async *products(): AsyncGenerator<{ index: number; value: unknown }> {
    const tokens = (this.tokens = new TokenReader());
    const parse = jsonParser({ streamValues: false });
    // fatal: a file that is not UTF-8 is refused rather than read with replacement characters.
    const decoder = new TextDecoder('utf-8', { fatal: true });
    this.bytesRead = 0;
    // The parser's and the decoder's errors say the text is not JSON; the reader's own are already placed.
    const tokenize = (read: () => ReturnType<typeof parse>) => {
      try {
        return read();
      } catch (error) {
        throw new CatalogFileSyntaxError(tokens.where(), `is not valid JSON: ${(error as Error).message}`);
      }
    };
    const feed = function* (parsed: ReturnType<typeof parse>) {
      if (parsed === none) return;
      for (const token of parsed.values) {
        const product = tokens.push(token);
        if (product) yield product;
      }
    };
    for await (const chunk of createReadStream(this.path) as AsyncIterable<Buffer>) {
      this.bytesRead += chunk.length;
      yield* feed(tokenize(() => parse(decoder.decode(chunk, { stream: true }))));
    }
    yield* feed(tokenize(() => parse(decoder.decode())));
    // A flushable is ended by calling it with `none` (stream-chain's protocol), which its typings leave out.
    const end = parse as unknown as (signal: typeof none) => ReturnType<typeof parse>;
    yield* feed(tokenize(() => end(none)));
    if (!tokens.complete) throw new CatalogFileSyntaxError(tokens.where(), 'is not valid JSON: the file ends before the value is complete');
  }
}

/** Turns the parser's tokens into the header and the products. */
class TokenReader {
  header: unknown = undefined;
  complete = false;
  /** Depth of the token position: 0 outside the root value, 1 in the root object, 2 in its products array. */
  private depth = 0;
  private key: string | undefined;
  private productIndex = -1;
  private inProducts = false;
  /** Assembles the value being read whole, if any. */
  private assembler: Assembler | undefined;
  /** Nesting left in a value being skipped. */
  private skipping = 0;
  /** Where a skipped or assembled value goes once complete. */
  private onValue: ((value: unknown) => { index: number; value: unknown } | undefined) | undefined;

  where(): string {
    if (this.inProducts) return `$.products[${Math.max(this.productIndex, 0)}]`;
    return this.key === undefined || this.depth === 0 ? '$' : `$.${this.key}`;
  }

  push(token: Token): { index: number; value: unknown } | undefined {
    if (this.assembler) {
      this.assembler.consume(token);
      return this.assembler.done ? this.finishValue(this.assembler.current) : undefined;
    }
    if (this.skipping > 0) {
      if (token.name === 'startObject' || token.name === 'startArray') this.skipping++;
      else if (token.name === 'endObject' || token.name === 'endArray') this.skipping--;
      return this.skipping === 0 ? this.finishValue(undefined) : undefined;
    }
    if (token.name === 'keyValue') {
      this.key = token.value;
      return undefined;
    }
    if (token.name === 'endObject' || token.name === 'endArray') {
      this.depth--;
      if (this.inProducts) this.inProducts = false;
      else this.complete = true;
      return undefined;
    }
    return this.startValue(token);
  }

  /** A value starts at the current position: decides how it is read. */
  private startValue(token: Token): { index: number; value: unknown } | undefined {
    if (this.depth === 0) {
      if (token.name === 'startObject') {
        this.header = {};
        this.depth = 1;
        return undefined;
      }
      // Not an object: the schema's answer needs only its kind.
      return this.read(token, 'skip', (value) => {
        this.header = value;
        this.complete = true;
        return undefined;
      });
    }
    if (this.depth === 2) {
      const index = ++this.productIndex;
      return this.read(token, 'assemble', (value) => ({ index, value }));
    }
    const key = this.key!;
    const header = this.header as Record<string, unknown>;
    if (Object.hasOwn(header, key)) throw new CatalogFileSyntaxError(`$.${key}`, `is not valid here: "${key}" appears twice in the file`);
    if (key === 'products' && token.name === 'startArray') {
      header.products = [];
      this.inProducts = true;
      this.depth = 2;
      return undefined;
    }
    return this.read(token, HEADER_MEMBERS.has(key) ? 'assemble' : 'skip', (value) => {
      header[key] = value;
      return undefined;
    });
  }

  private read(
    token: Token,
    how: 'assemble' | 'skip',
    onValue: (value: unknown) => { index: number; value: unknown } | undefined,
  ): { index: number; value: unknown } | undefined {
    const startsContainer = token.name === 'startObject' || token.name === 'startArray';
    if (!startsContainer) return onValue(scalarOf(token));
    this.onValue = onValue;
    if (how === 'skip') {
      this.skipping = 1;
      this.onValue = () => onValue(PLACEHOLDER_OF_START[token.name]!());
      return undefined;
    }
    this.assembler = new Assembler();
    this.assembler.consume(token);
    return undefined;
  }

  private finishValue(value: unknown) {
    const onValue = this.onValue!;
    this.assembler = undefined;
    this.onValue = undefined;
    return onValue(value);
  }
}

function scalarOf(token: Token): unknown {
  switch (token.name) {
    case 'stringValue':
      return token.value;
    case 'numberValue':
      return Number(token.value);
    case 'nullValue':
      return null;
    case 'trueValue':
      return true;
    case 'falseValue':
      return false;
    default:
      throw new Error(`unexpected token ${token.name}`);
  }
}
