import type { Endpoint } from '../types.js';
import { apiKeyHeader, cloudflareToken, databricksBasic, sparkHttp, zhipuAuth } from './auth.js';
import { deepseekBalance, moonshotBalance, openrouterBalance, recraftBalance, siliconflowBalance } from './balance.js';
import { openrouterBody, xaiBody } from './body.js';
import { azureModels, azureUrl, azureV1Url, cloudflareImageAnswer, cloudflareImageBody, cloudflareModels, cloudflareModelsUrl, cloudflareUrl, databricksUrl, sparkModel } from './urls.js';
import { sparkAnswer } from './spark.js';
import { minimaxAnswer, minimaxAuth, minimaxBody, minimaxUrl } from './minimax.js';
import { zhipuTools } from './zhipu.js';
import type { FamilyProfile } from './family.js';

const CHAT: Endpoint[] = ['chat/completions'];
const CHAT_EMBED: Endpoint[] = ['chat/completions', 'embeddings'];
const AZURE: Endpoint[] = [
  'chat/completions', 'completions', 'embeddings', 'images/generations', 'images/edits',
  'audio/speech', 'audio/transcriptions', 'audio/translations', 'responses',
];

/**
 * Every OpenAI-dialect provider other than OpenAI itself, as data (relay.md §5.1, §5.2, §5.9).
 * Types not listed here (OpenAI 1, Custom 8, unknown ids) stay with the generic adapter.
 */
export const FAMILY_PROFILES: FamilyProfile[] = [
  { name: 'azure', types: [3], endpoints: AZURE, url: azureUrl, auth: apiKeyHeader, streamUsage: true, models: azureModels },
  { name: 'azure-v1', types: [55], endpoints: AZURE, url: azureV1Url, auth: apiKeyHeader, streamUsage: true, models: (c) => azureV1Url(c, 'models', '') },
  { name: 'azure-databricks', types: [54], endpoints: CHAT_EMBED, url: databricksUrl, auth: databricksBasic, models: null },
  { name: 'deepseek', types: [28], endpoints: CHAT, streamUsage: true, balance: deepseekBalance },
  { name: 'moonshot', types: [29], endpoints: CHAT, streamUsage: true, balance: moonshotBalance },
  { name: 'mistral', types: [30], endpoints: CHAT_EMBED },
  { name: 'groq', types: [31], endpoints: ['chat/completions', 'audio/transcriptions', 'audio/translations'] },
  { name: 'lingyi', types: [33], endpoints: CHAT },
  { name: 'baichuan', types: [26], endpoints: CHAT_EMBED },
  {
    name: 'minimax',
    types: [27],
    endpoints: ['chat/completions', 'audio/speech'],
    url: minimaxUrl,
    auth: minimaxAuth,
    tweak: minimaxBody,
    transformResponse: minimaxAnswer,
    models: null,
  },
  { name: '360', types: [19], endpoints: CHAT_EMBED, models: null },
  { name: 'openrouter', types: [20], endpoints: ['chat/completions', 'completions', 'embeddings', 'responses'], streamUsage: true, balance: openrouterBalance, tweak: openrouterBody },
  { name: 'siliconflow', types: [45], endpoints: ['chat/completions', 'embeddings', 'audio/speech', 'audio/transcriptions', 'rerank', 'images/generations'], streamUsage: true, balance: siliconflowBalance },
  { name: 'jina', types: [47], endpoints: ['embeddings', 'rerank'], models: null },
  { name: 'github-models', types: [49], endpoints: CHAT_EMBED, prefix: '' },
  {
    name: 'xai',
    types: [56],
    endpoints: ['chat/completions', 'completions', 'images/generations', 'responses'],
    streamUsage: true,
    tweak: xaiBody,
    // xAI leaves reasoning tokens out of completion_tokens but counts them in the total.
    fixUsage: (usage, raw) => {
      const total = typeof raw.total_tokens === 'number' ? raw.total_tokens : 0;
      return total > usage.promptTokens + usage.completionTokens ? { ...usage, completionTokens: total - usage.promptTokens } : usage;
    },
  },
  { name: 'zhipu', types: [16], endpoints: ['chat/completions', 'embeddings', 'images/generations'], prefix: '', auth: zhipuAuth, tweak: zhipuTools, models: null },
  // Spark's HTTP API (the WebSocket API of the original is not served).
  {
    name: 'xunfei-spark',
    types: [18],
    endpoints: CHAT,
    defaultBase: 'https://spark-api-open.xf-yun.com',
    auth: sparkHttp,
    tweak: (_e, body, model, channel) => {
      const domain = sparkModel(model, channel.other);
      return domain === model ? body : { ...body, model: domain };
    },
    transformResponse: sparkAnswer,
    models: null,
  },
  // Workers AI through Cloudflare's OpenAI-compatible endpoints (usage reported, OpenAI streams).
  {
    name: 'cloudflare',
    types: [35],
    endpoints: ['chat/completions', 'embeddings', 'images/generations'],
    url: cloudflareUrl,
    auth: cloudflareToken,
    tweak: cloudflareImageBody,
    transformResponse: cloudflareImageAnswer,
    models: cloudflareModelsUrl,
    parseModels: cloudflareModels,
  },
  { name: 'recraft', types: [51], endpoints: ['images/generations'], balance: recraftBalance, models: null },
];
