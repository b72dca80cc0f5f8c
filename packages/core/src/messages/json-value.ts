import { z } from 'zod';

/**
 * A value JSON can hold exactly (no `undefined`, BigInt, NaN, functions, Dates). Used for every
 * free-form field that is stored or sent, so a value that validated can always be serialised.
 */
export const JsonValueSchema = z.json();

export type JsonValue = z.infer<typeof JsonValueSchema>;
