import type { JsonValue } from '@cairn/core';

// The text is not the start of any JSON document: parsing gives up.
class NotJson extends Error {}

// Nothing usable yet at the end of the text (a number or literal still being written, a key
// without its value).
const PENDING = Symbol('pending');

interface Parsed {
  value: JsonValue;
  /** The value's text ended: a later character cannot change it. */
  done: boolean;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const LITERALS: ReadonlyArray<readonly [string, JsonValue]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];

// `__proto__` is a key like any other in JSON: defined, never assigned (which would set the prototype).
function setField(object: Record<string, JsonValue>, key: string, value: JsonValue): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

class PartialJsonParser {
  private at = 0;

  constructor(private readonly text: string) {}

  parse(): JsonValue | undefined {
    const parsed = this.value();
    return parsed === PENDING ? undefined : parsed.value;
  }

  private get ended(): boolean {
    return this.at >= this.text.length;
  }

  private skipSpace(): void {
    while (!this.ended && ' \t\n\r'.includes(this.text[this.at] as string)) this.at++;
  }

  private value(): Parsed | typeof PENDING {
    this.skipSpace();
    if (this.ended) return PENDING;
    const char = this.text[this.at];
    if (char === '{') return this.object();
    if (char === '[') return this.array();
    if (char === '"') return this.string();
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return this.number();
    return this.literal();
  }

  private object(): Parsed {
    const object: Record<string, JsonValue> = {};
    this.at++;
    for (let first = true; ; first = false) {
      this.skipSpace();
      if (this.ended) return { value: object, done: false };
      if (this.text[this.at] === '}') {
        this.at++;
        return { value: object, done: true };
      }
      if (!first) {
        if (this.text[this.at] !== ',') throw new NotJson();
        this.at++;
        this.skipSpace();
        if (this.ended) return { value: object, done: false };
      }
      if (this.text[this.at] !== '"') throw new NotJson();
      const key = this.string();
      this.skipSpace();
      // A key still being written, or one without its value yet, is left out.
      if (!key.done || this.ended) return { value: object, done: false };
      if (this.text[this.at] !== ':') throw new NotJson();
      this.at++;
      const field = this.value();
      if (field === PENDING) return { value: object, done: false };
      setField(object, key.value as string, field.value);
      if (!field.done) return { value: object, done: false };
    }
  }

  private array(): Parsed {
    const array: JsonValue[] = [];
    this.at++;
    for (let first = true; ; first = false) {
      this.skipSpace();
      if (this.ended) return { value: array, done: false };
      if (this.text[this.at] === ']') {
        this.at++;
        return { value: array, done: true };
      }
      if (!first) {
        if (this.text[this.at] !== ',') throw new NotJson();
        this.at++;
      }
      const item = this.value();
      if (item === PENDING) return { value: array, done: false };
      array.push(item.value);
      if (!item.done) return { value: array, done: false };
    }
  }

  // An unfinished string is the text so far, an escape cut in the middle left out.
  private string(): Parsed {
    let value = '';
    this.at++;
    while (!this.ended) {
      const char = this.text[this.at] as string;
      if (char === '"') {
        this.at++;
        return { value, done: true };
      }
      if (char !== '\\') {
        value += char;
        this.at++;
        continue;
      }
      const code = this.text[this.at + 1];
      if (code === undefined) break;
      if (code === 'u') {
        const hex = this.text.slice(this.at + 2, this.at + 6);
        if (!/^[0-9a-fA-F]*$/.test(hex)) throw new NotJson();
        if (hex.length < 4) break;
        value += String.fromCharCode(Number.parseInt(hex, 16));
        this.at += 6;
        continue;
      }
      const escaped = ESCAPES[code];
      if (escaped === undefined) throw new NotJson();
      value += escaped;
      this.at += 2;
    }
    this.at = this.text.length;
    return { value, done: false };
  }

  // A number at the very end may go on (`1` of `10`): it counts once something follows it.
  private number(): Parsed | typeof PENDING {
    const start = this.at;
    while (!this.ended && '+-0123456789.eE'.includes(this.text[this.at] as string)) this.at++;
    if (this.ended) return PENDING;
    const token = this.text.slice(start, this.at);
    if (!NUMBER.test(token)) throw new NotJson();
    return { value: Number(token), done: true };
  }

  private literal(): Parsed | typeof PENDING {
    const rest = this.text.slice(this.at, this.at + 5);
    for (const [word, value] of LITERALS) {
      if (rest.startsWith(word)) {
        this.at += word.length;
        return { value, done: true };
      }
      if (this.at + rest.length === this.text.length && word.startsWith(rest)) {
        this.at = this.text.length;
        return PENDING;
      }
    }
    throw new NotJson();
  }
}

/**
 * The value of a JSON document of which `text` is the start, as far as it goes: objects and arrays
 * with the fields and items written so far, an unfinished string as its text so far; a number or
 * literal still being written, and a key without its value, are left out. Every prefix of a
 * document gives a value consistent with the whole one. `undefined` when nothing is there yet or
 * the text cannot start a JSON document; never throws. What follows a complete value is ignored.
 */
export function parsePartialJson(text: string): JsonValue | undefined {
  try {
    return new PartialJsonParser(text).parse();
  } catch (error) {
    if (error instanceof NotJson) return undefined;
    throw error;
  }
}
