import type { ChannelTarget, Endpoint } from '../types.js';

type Body = Record<string, unknown>;

/**
 * Zhipu's built-in tools switched on by the channel plugin (api.md §3 plugins): knowledge-base
 * retrieval, web search, and the All Tools browser, drawing tool and code sandbox.
 */
export function zhipuTools(endpoint: Endpoint, body: Body, _model: string, channel: ChannelTarget): Body {
  const plugin = channel.plugin ?? {};
  if (endpoint !== 'chat/completions') return body;
  const extra: Body[] = [];
  const retrieval = plugin.retrieval;
  if (typeof retrieval?.knowledge_id === 'string' && retrieval.knowledge_id) {
    extra.push({ type: 'retrieval', retrieval: { knowledge_id: retrieval.knowledge_id, ...(retrieval.prompt_template ? { prompt_template: retrieval.prompt_template } : {}) } });
  }
  if (plugin.web_search?.enable === true) extra.push({ type: 'web_search', web_search: { enable: true } });
  if (plugin.web_browser?.enable === true) extra.push({ type: 'web_browser' });
  if (plugin.drawing_tool?.enable === true) extra.push({ type: 'drawing_tool' });
  const sandbox = plugin.code_interpreter?.sandbox;
  if (sandbox === 'auto' || sandbox === 'none') extra.push({ type: 'code_interpreter', code_interpreter: { sandbox } });
  if (!extra.length) return body;
  return { ...body, tools: [...(Array.isArray(body.tools) ? body.tools : []), ...extra] };
}
