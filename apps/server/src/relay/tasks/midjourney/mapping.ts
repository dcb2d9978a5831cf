import { HubError } from '../../../common/errors.js';

export const MJ_CHANNEL_TYPE = 34;

export type MjMode = 'fast' | 'turbo' | 'relax';

export const MJ_ACTIONS = [
  'IMAGINE', 'DESCRIBE', 'BLEND', 'UPSCALE', 'VARIATION', 'REROLL', 'INPAINT', 'MODAL', 'ZOOM',
  'CUSTOM_ZOOM', 'SHORTEN', 'HIGH_VARIATION', 'LOW_VARIATION', 'PAN', 'SWAP_FACE', 'UPLOAD',
] as const;
export type MjAction = (typeof MJ_ACTIONS)[number];

/** Actions the gateway never charges (relay.md §6.1): they only open or fill a dialog. */
export const NEVER_CHARGED: ReadonlySet<MjAction> = new Set(['INPAINT', 'CUSTOM_ZOOM']);
/** Submit codes that mean accepted: done, already exists, queued. */
export const ACCEPTED_CODES: ReadonlySet<number> = new Set([1, 21, 22]);
export const NO_ACCOUNT_CODE = 3;

/** An MJ error in Midjourney-Proxy's shape (`code` 4 is "validation"). */
export const mjError = (status: number, description: string, code = 4) => new HubError(status, description, { type: 'one_hub_error', code: String(code) });

/** `/:mode/mj/…` prefix → mode; no prefix is fast (relay.md §1.2). */
export function modeOf(prefix: string | undefined): MjMode {
  if (!prefix) return 'fast';
  const mode = { 'mj-fast': 'fast', 'mj-turbo': 'turbo', 'mj-relax': 'relax' }[prefix] as MjMode | undefined;
  if (!mode) throw mjError(400, '无效的加速模式');
  return mode;
}

/** `mj_` + mode (unless fast) + action, e.g. `mj_relax_upscale`. */
export function mjModel(mode: MjMode, action: MjAction): string {
  return `mj_${mode === 'fast' ? '' : `${mode}_`}${action.toLowerCase()}`;
}

/** Submit path segment → action; `change`, `simple-change` and `action` read theirs from the body. */
export const PATH_ACTIONS: Readonly<Record<string, MjAction>> = {
  imagine: 'IMAGINE',
  describe: 'DESCRIBE',
  blend: 'BLEND',
  shorten: 'SHORTEN',
  modal: 'MODAL',
  'upload-discord-images': 'UPLOAD',
};

/** MJ-Plus button ids: `MJ::JOB::<kind>::…` or `MJ::<kind>::…`. Longer kinds first. */
const CUSTOM_ID_KINDS: Array<[string, MjAction]> = [
  ['JOB::low_variation', 'LOW_VARIATION'],
  ['JOB::high_variation', 'HIGH_VARIATION'],
  ['JOB::upsample', 'UPSCALE'],
  ['JOB::variation', 'VARIATION'],
  ['JOB::reroll', 'REROLL'],
  ['JOB::pan_', 'PAN'],
  ['CustomZoom', 'CUSTOM_ZOOM'],
  ['Outpaint', 'ZOOM'],
  ['Inpaint', 'INPAINT'],
];

export function actionOfCustomId(customId: unknown): MjAction {
  if (typeof customId !== 'string' || !customId.startsWith('MJ::')) throw mjError(400, 'customId 无效');
  const rest = customId.slice(4);
  const found = CUSTOM_ID_KINDS.find(([kind]) => rest.startsWith(kind));
  if (!found) throw mjError(400, `不支持的 customId: ${customId.slice(0, 80)}`);
  return found[1];
}

const CHANGE_LETTERS: Readonly<Record<string, MjAction>> = { U: 'UPSCALE', V: 'VARIATION', R: 'REROLL' };

/**
 * `simple-change`'s `content`: `<taskId> U1`…`U4`, `V1`…`V4` or `R` (the original ignored
 * it and treated the request as a change without fields).
 */
export function parseSimpleChange(content: unknown): { taskId: string; action: MjAction; index?: number } {
  const match = typeof content === 'string' ? /^\s*(\S+)\s+([UVR])([1-4])?\s*$/i.exec(content) : null;
  if (!match) throw mjError(400, 'content 参数错误，应为 "<taskId> U1|U2|U3|U4|V1|V2|V3|V4|R"');
  const letter = match[2].toUpperCase();
  const index = match[3] ? Number(match[3]) : undefined;
  if ((letter === 'R') !== (index === undefined)) throw mjError(400, 'content 参数错误，应为 "<taskId> U1|U2|U3|U4|V1|V2|V3|V4|R"');
  return { taskId: match[1], action: CHANGE_LETTERS[letter], index };
}

/** `/submit/change`: UPSCALE, VARIATION (index 1–4) or REROLL of an earlier task. */
export function parseChange(body: Record<string, unknown>): { taskId: string; action: MjAction; index?: number } {
  const { taskId, action, index } = body;
  if (typeof taskId !== 'string' || !taskId) throw mjError(400, 'taskId不能为空');
  if (action !== 'UPSCALE' && action !== 'VARIATION' && action !== 'REROLL') throw mjError(400, 'action参数错误');
  if (action !== 'REROLL' && !(Number.isInteger(index) && (index as number) >= 1 && (index as number) <= 4)) throw mjError(400, 'index参数错误');
  return { taskId, action, index: action === 'REROLL' ? undefined : (index as number) };
}

const MODE_FLAGS = /\s*--(fast|relax|turbo)\b\s*/gi;

/**
 * What goes upstream: the caller's body with its account filter replaced by the speed mode,
 * its notify hook replaced by the gateway's (or removed) and speed flags cut from the prompt.
 */
export function upstreamBody(body: Record<string, unknown>, mode: MjMode, notifyHook: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body, accountFilter: { modes: [mode.toUpperCase()] } };
  delete out.notifyHook;
  if (notifyHook) out.notifyHook = notifyHook;
  if (typeof out.prompt === 'string') out.prompt = out.prompt.replace(MODE_FLAGS, ' ').trim();
  return out;
}

/** Codes 21 (exists) and 22 (queued) read as 1 by clients, except for INPAINT and CUSTOM_ZOOM whose 21 opens a dialog. */
export function rewriteCode(code: number, action: MjAction): number {
  if (code === 22) return 1;
  if (code === 21 && !NEVER_CHARGED.has(action)) return 1;
  return code;
}

/** Upstream status text → whether the task has ended badly. */
export function isFailed(status: string, progress: string, failReason: string): boolean {
  return status === 'FAILURE' || (progress !== '100%' && failReason !== '');
}
