import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { none } from 'stream-chain/defs.js';
import { Assembler } from 'stream-json/core/assembler.js';
import { jsonParser, type Token } from 'stream-json/core/parser.js';
import { CatalogFile, CatalogFileProduct } from './catalog-file-schema.js';

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

/**
 * The longest string, object key or number a catalog file may hold, in characters: far
 * above the longest text the schema allows (a description's 10,000), so the schema names
 * a text that is merely too long; a longer one is refused while it streams by, before it
 * is held whole.
 */
export const MAX_TEXT_LENGTH = 65_536;

/**
 * The file cannot be read on: it is not JSON (or not UTF-8), or it holds a value beyond
 * the bounds that let it be read without holding it whole (`MAX_TEXT_LENGTH`, an array's
 * `maxItems`). `path` is where reading stopped, as near as it can be told.
 */
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
    // Strings, keys and numbers come in chunks, so that one too long is refused before it is held whole (`pack`).
    const parse = jsonParser({ packValues: false });
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

/**
 * Unknown members of an object that are kept: one, enough for the schema to name the
 * problem; the others are dropped as they stream by. Only an unknown member makes an
 * object grow (a repeated one replaces the value before it), and each kept one becomes
 * an error object of the validator, over up to 10,000 categories and collections.
 */
const MAX_UNKNOWN_MEMBERS = 1;

/** The part of a JSON Schema that bounds a value while it streams by. */
interface Bounds {
  type?: string;
  properties?: Record<string, Bounds>;
  additionalProperties?: unknown;
  items?: Bounds;
  maxItems?: number;
  anyOf?: Bounds[];
}

/** What bounds a product, and each member of the header read whole. */
const PRODUCT_BOUNDS = CatalogFileProduct as Bounds;
const HEADER_BOUNDS = CatalogFile as Bounds;

/** A container of the value being assembled. */
interface Frame {
  kind: 'object' | 'array';
  /** What the schema says of it; none where it describes no such container (then it is kept empty). */
  bounds: Bounds | undefined;
  /** The items (of an array) or unknown members (of an object with only known members) kept; the others are dropped. */
  max: number;
  /** Where the container is in its parent: an index or a key (none for the value itself). */
  at: number | string | undefined;
  /** Items of an array, or unknown members of an object, so far. */
  count: number;
  /** The key of the member being read, in an object. */
  key: string | undefined;
}

type Read = { index: number; value: unknown } | undefined;

/** Turns the parser's tokens into the header and the products. */
class TokenReader {
  header: unknown = undefined;
  complete = false;
  /** Depth of the token position: 0 outside the root value, 1 in the root object, 2 in its products array. */
  private depth = 0;
  private key: string | undefined;
  private productIndex = -1;
  private inProducts = false;
  /** The string, key or number being read, if any (the parser streams them in chunks). */
  private text: string | undefined;
  /** Assembles the value being read whole, if any. */
  private assembler: Assembler | undefined;
  /** The containers open in the value being assembled, outermost first. */
  private frames: Frame[] = [];
  /** What bounds the value being assembled. */
  private bounds: Bounds | undefined;
  /** Nesting left in a value being skipped, or in a container of an assembled value that is kept empty or dropped. */
  private skipping = 0;
  /** The container being skipped in an assembled value is dropped, not kept empty. */
  private dropping = false;
  /** The value of the member whose key was just dropped is dropped too. */
  private dropValue = false;
  /** Where a skipped or assembled value goes once complete. */
  private onValue: ((value: unknown) => Read) | undefined;

  where(): string {
    if (this.inProducts) return `$.products[${Math.max(this.productIndex, 0)}]`;
    return this.key === undefined || this.depth === 0 ? '$' : `$.${this.key}`;
  }

  /** The path of the value being read in the value being assembled, as near as it can be told. */
  private pathHere(): string {
    let path = this.where();
    for (const frame of this.frames) path += segment(frame.at);
    const top = this.frames.at(-1);
    if (top) path += segment(top.kind === 'array' ? top.count : top.key);
    return path;
  }

  push(token: Token): Read {
    const packed = this.pack(token);
    if (!packed) return undefined;
    if (this.assembler) return this.assemble(packed);
    if (this.skipping > 0) {
      if (packed.name === 'startObject' || packed.name === 'startArray') this.skipping++;
      else if (packed.name === 'endObject' || packed.name === 'endArray') this.skipping--;
      return this.skipping === 0 ? this.finishValue(undefined) : undefined;
    }
    if (packed.name === 'keyValue') {
      this.key = packed.value;
      return undefined;
    }
    if (packed.name === 'endObject' || packed.name === 'endArray') {
      this.depth--;
      if (this.inProducts) this.inProducts = false;
      else this.complete = true;
      return undefined;
    }
    return this.startValue(packed);
  }

  /**
   * Collects a string, key or number from its chunks into one token, refusing it once it
   * is longer than `MAX_TEXT_LENGTH`; passes other tokens on.
   */
  private pack(token: Token): Token | undefined {
    switch (token.name) {
      case 'startString':
      case 'startKey':
      case 'startNumber':
        this.text = '';
        return undefined;
      case 'stringChunk':
      case 'numberChunk':
        this.text += token.value;
        if (this.text!.length > MAX_TEXT_LENGTH) {
          this.text = undefined;
          throw new CatalogFileSyntaxError(this.pathHere(), `is longer than ${MAX_TEXT_LENGTH.toLocaleString('en-US')} characters, the most a string, key or number of a catalog file may have; reading stopped here`);
        }
        return undefined;
      case 'endString':
      case 'endKey':
      case 'endNumber': {
        const value = this.text!;
        this.text = undefined;
        return { name: token.name === 'endString' ? 'stringValue' : token.name === 'endKey' ? 'keyValue' : 'numberValue', value } as Token;
      }
      default:
        return token;
    }
  }

  /**
   * Feeds the value being assembled, within the bounds of its schema, so that no file
   * makes it grow past what a valid one holds while the schema still sees what is wrong:
   * an array keeps one item more than its `maxItems`, an object with only known members
   * keeps `MAX_UNKNOWN_MEMBERS` unknown ones, and a container the schema does not describe
   * there (an unknown member's, or one of the wrong kind) is kept empty.
   */
  private assemble(token: Token): Read {
    const starts = token.name === 'startObject' || token.name === 'startArray';
    const ends = token.name === 'endObject' || token.name === 'endArray';
    if (this.skipping > 0) {
      this.skipping += starts ? 1 : ends ? -1 : 0;
      if (this.skipping > 0) return undefined;
      if (this.dropping) {
        this.dropping = false;
        return undefined;
      }
    }
    const top = this.frames.at(-1);
    if (ends) this.frames.pop();
    else if (token.name === 'keyValue') {
      if (!Object.hasOwn(top!.bounds?.properties ?? {}, token.value) && ++top!.count > top!.max) {
        this.dropValue = true;
        return undefined;
      }
      top!.key = token.value;
    } else {
      if (this.dropValue || (top?.kind === 'array' && ++top.count > top.max + 1)) {
        this.dropValue = false;
        this.skipping = starts ? 1 : 0;
        this.dropping = starts;
        return undefined;
      }
      if (starts) {
        const kind = token.name === 'startObject' ? 'object' : 'array';
        const described = top ? (top.kind === 'array' ? top.bounds?.items : top.bounds?.properties?.[top.key!]) : this.bounds;
        const bounds = described?.type === kind ? described : described?.anyOf?.find((member) => member.type === kind);
        const max = kind === 'array' ? (bounds?.maxItems ?? Infinity) : bounds?.additionalProperties === false ? MAX_UNKNOWN_MEMBERS : Infinity;
        this.frames.push({ kind, bounds, max, at: top && (top.kind === 'array' ? top.count - 1 : top.key), count: 0, key: undefined });
        if (!bounds) this.skipping = 1;
      }
      if (top) top.key = undefined;
    }
    this.assembler!.consume(token);
    return this.assembler!.done ? this.finishValue(this.assembler!.current) : undefined;
  }

  /** A value starts at the current position: decides how it is read. */
  private startValue(token: Token): Read {
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
      return this.read(token, PRODUCT_BOUNDS, (value) => ({ index, value }));
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
    return this.read(token, HEADER_MEMBERS.has(key) ? HEADER_BOUNDS.properties![key] : 'skip', (value) => {
      header[key] = value;
      return undefined;
    });
  }

  /** Reads the value that `token` starts: skipped, or assembled within `bounds`. */
  private read(token: Token, how: Bounds | undefined | 'skip', onValue: (value: unknown) => Read): Read {
    const startsContainer = token.name === 'startObject' || token.name === 'startArray';
    if (!startsContainer) return onValue(scalarOf(token));
    this.onValue = onValue;
    if (how === 'skip') {
      this.skipping = 1;
      this.onValue = () => onValue(PLACEHOLDER_OF_START[token.name]!());
      return undefined;
    }
    this.assembler = new Assembler();
    this.bounds = how;
    return this.assemble(token);
  }

  private finishValue(value: unknown) {
    const onValue = this.onValue!;
    this.assembler = undefined;
    this.frames = [];
    this.onValue = undefined;
    return onValue(value);
  }
}

function segment(at: number | string | undefined): string {
  if (at === undefined) return '';
  if (typeof at === 'number') return `[${at}]`;
  return /^[A-Za-z_$][\w$]*$/.test(at) ? `.${at}` : `[${JSON.stringify(at)}]`;
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
