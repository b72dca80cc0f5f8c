import { isRecord } from '../is-record.js';

// The `response_format` rules of Chat Completions, with the API's own 400 messages. A strict
// `json_schema` must be in the subset strict mode takes: an object root, every object closed
// (`additionalProperties: false`) with every property required, every node typed, and none of the
// keywords strict mode does not permit.

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const NOT_PERMITTED = [
  'allOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'minContains',
  'maxContains',
  'prefixItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
  'uniqueItems',
  'default',
];
const FORMATS = ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'];
const TYPING = ['type', 'anyOf', 'enum', 'const', '$ref'];

type Context = readonly (string | number)[];

/** As the API prints it: a Python tuple, `()`, `('items',)`, `('properties', 'a')`. */
function contextText(context: Context): string {
  const items = context.map((item) => (typeof item === 'number' ? String(item) : `'${item}'`));
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
}

function nodeProblem(node: unknown, context: Context): string | undefined {
  if (!isRecord(node)) return undefined;
  const at = `In context=${contextText(context)}`;
  const refused = NOT_PERMITTED.find((keyword) => node[keyword] !== undefined);
  if (refused !== undefined) return `${at}, '${refused}' is not permitted.`;
  if (typeof node.format === 'string' && !FORMATS.includes(node.format)) {
    return `${at}, '${node.format}' is not a valid format.`;
  }
  if (!TYPING.some((keyword) => node[keyword] !== undefined) && !isRecord(node.properties)) {
    return `${at}, schema must have a 'type' key.`;
  }
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('object') || isRecord(node.properties)) {
    if (node.additionalProperties !== false) {
      return `${at}, 'additionalProperties' is required to be supplied and to be false.`;
    }
    const properties = isRecord(node.properties) ? Object.keys(node.properties) : [];
    const required = Array.isArray(node.required) ? node.required : [];
    const missing = properties.find((name) => !required.includes(name));
    if (missing !== undefined) {
      return `${at}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`;
    }
  }
  const children: [unknown, Context][] = [];
  for (const key of ['properties', '$defs', 'definitions']) {
    if (isRecord(node[key])) {
      for (const [name, child] of Object.entries(node[key])) children.push([child, [...context, key, name]]);
    }
  }
  if (node.items !== undefined) children.push([node.items, [...context, 'items']]);
  if (Array.isArray(node.anyOf)) {
    for (const [index, branch] of node.anyOf.entries()) children.push([branch, [...context, 'anyOf', index]]);
  }
  for (const [child, childContext] of children) {
    const problem = nodeProblem(child, childContext);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** The API's message when `response_format` breaks its rules, else `undefined`. */
export function openAIResponseFormatProblem(format: unknown): string | undefined {
  if (format === undefined) return undefined;
  const type = isRecord(format) ? format.type : undefined;
  if (type === 'text' || type === 'json_object') return undefined;
  if (type !== 'json_schema') {
    return `Invalid value: '${String(type)}'. Supported values are: 'text', 'json_object', and 'json_schema'.`;
  }
  const spec = isRecord(format) ? format.json_schema : undefined;
  if (!isRecord(spec)) return "Missing required parameter: 'response_format.json_schema'.";
  if (typeof spec.name !== 'string') return "Missing required parameter: 'response_format.json_schema.name'.";
  if (!NAME.test(spec.name)) {
    return "Invalid 'response_format.json_schema.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.";
  }
  if (spec.strict !== true) return undefined;
  const prefix = `Invalid schema for response_format '${spec.name}'`;
  const { schema } = spec;
  const rootType = isRecord(schema) ? schema.type : undefined;
  if (!isRecord(schema) || rootType !== 'object' || schema.anyOf !== undefined) {
    return `${prefix}: schema must be a JSON Schema of 'type: "object"', got 'type: "${String(rootType)}"'.`;
  }
  const problem = nodeProblem(schema, []);
  return problem === undefined ? undefined : `${prefix}: ${problem}`;
}
