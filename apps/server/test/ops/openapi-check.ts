/** Helpers of the OpenAPI sweep: Fastify's own route list, and the OpenAPI 3.1 rules that matter here. */

type Json = Record<string, any>;

/** Every (method, path) Fastify has, read from its own route tree (independent of the OpenAPI hook). */
export function fastifyRoutes(tree: string): Set<string> {
  const out = new Set<string>();
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│├└─\s]*)(\S.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m || !m[2]) continue;
    const depth = Math.round([...m[1]].length / 4);
    stack.length = depth;
    stack.push(m[2]);
    const path = norm(stack.join(''));
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) if (method !== 'HEAD' && method !== 'OPTIONS') out.add(`${method} ${path}`);
  }
  return out;
}

/**
 * One spelling for both sides: no trailing slash, `/x/*` as `/x*` (the route tree prints it so),
 * parameter names as `:_` (the tree prints one node's names as `:model|:action`).
 */
export const norm = (path: string) => path.replace(/\/$/, '').replace(/\/\*$/, '*').replace(/:\w+(\|:\w+)*/g, ':_') || '/';
export const openApiToFastify = (path: string) => norm(path.replace(/\{path\}$/, '*').replace(/\{(\w+)\}/g, ':$1'));

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const ITEM_KEYS = new Set([...METHODS, '$ref', 'summary', 'description', 'servers', 'parameters']);
const PARAM_IN = new Set(['query', 'header', 'path', 'cookie']);

/** The OpenAPI 3.1 rules a generated document can break, each broken one as a line. */
export function checkOpenApi31(doc: Json): string[] {
  const errors: string[] = [];
  if (!/^3\.1\.\d+$/.test(String(doc.openapi))) errors.push(`openapi is ${doc.openapi}, not 3.1.x`);
  if (typeof doc.info?.title !== 'string' || typeof doc.info?.version !== 'string') errors.push('info needs a title and a version');
  if (!doc.paths || typeof doc.paths !== 'object') return [...errors, 'no paths'];
  const ids = new Map<string, string>();
  const shapes = new Map<string, string>();
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    if (!path.startsWith('/')) errors.push(`${path}: a path starts with /`);
    // Templates equal but for their parameter names are the same path (3.1 §4.8.8).
    const shape = path.replace(/\{[^}]*\}/g, '{}');
    if (shapes.has(shape)) errors.push(`${path}: same template as ${shapes.get(shape)}`);
    shapes.set(shape, path);
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    if (new Set(templated).size !== templated.length) errors.push(`${path}: a template name repeats`);
    for (const [key, op] of Object.entries<Json>(item)) {
      if (!ITEM_KEYS.has(key) && !key.startsWith('x-')) errors.push(`${path}: "${key}" is not an operation of a 3.1 path item`);
      if (!METHODS.has(key)) continue;
      const where = `${key.toUpperCase()} ${path}`;
      if (op.operationId !== undefined) {
        if (ids.has(op.operationId)) errors.push(`${where}: operationId ${op.operationId} also on ${ids.get(op.operationId)}`);
        ids.set(op.operationId, where);
      }
      if (!op.responses || !Object.keys(op.responses).length) errors.push(`${where}: no responses`);
      for (const [code, r] of Object.entries<Json>(op.responses ?? {})) {
        if (!/^([1-5](\d\d|XX)|default)$/.test(code)) errors.push(`${where}: response key ${code}`);
        if (typeof r?.description !== 'string') errors.push(`${where}: response ${code} has no description`);
      }
      const seen = new Set<string>();
      for (const p of op.parameters ?? []) {
        if (typeof p.name !== 'string' || !PARAM_IN.has(p.in)) errors.push(`${where}: parameter ${JSON.stringify(p)} needs a name and a valid "in"`);
        if (seen.has(`${p.in} ${p.name}`)) errors.push(`${where}: parameter ${p.in} ${p.name} twice`);
        seen.add(`${p.in} ${p.name}`);
        if (p.in === 'path' && p.required !== true) errors.push(`${where}: path parameter ${p.name} must be required`);
        if (p.in === 'path' && !templated.includes(p.name)) errors.push(`${where}: path parameter ${p.name} is not in the template`);
        if (!p.schema && !p.content) errors.push(`${where}: parameter ${p.name} has neither schema nor content`);
      }
      for (const name of templated) if (!seen.has(`path ${name}`)) errors.push(`${where}: template {${name}} is not a declared path parameter`);
      if (op.requestBody && (!op.requestBody.content || !Object.keys(op.requestBody.content).length)) errors.push(`${where}: requestBody without content`);
      for (const s of op.security ?? []) for (const scheme of Object.keys(s)) if (!doc.components?.securitySchemes?.[scheme]) errors.push(`${where}: security scheme ${scheme} is not defined`);
    }
  }
  return errors;
}
