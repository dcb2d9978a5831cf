/**
 * Channel type catalogue (api.md §3): what the console offers and what the
 * relay falls back to when a channel has no base URL of its own.
 * `protocol`: 'openai' = served by the OpenAI-compatible adapter; 'native' =
 * own wire format (adapter in the providers issue); 'task' = async tasks.
 */
export interface ChannelType {
  id: number;
  name: string;
  protocol: 'openai' | 'native' | 'task';
  baseUrl: string;
  /** Models the console pre-fills for a new channel. */
  models: string[];
  keyHint?: string;
}

const t = (id: number, name: string, protocol: ChannelType['protocol'], baseUrl: string, models: string[], keyHint?: string): ChannelType => ({
  id,
  name,
  protocol,
  baseUrl,
  models,
  keyHint,
});

export const CHANNEL_TYPES: readonly ChannelType[] = [
  t(1, 'OpenAI', 'openai', 'https://api.openai.com', ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini', 'o4-mini', 'text-embedding-3-small']),
  t(3, 'Azure OpenAI', 'native', '', ['gpt-4o', 'gpt-4o-mini'], 'API key; other = API version'),
  t(8, 'Custom', 'openai', '', []),
  t(11, 'Google PaLM2', 'native', 'https://generativelanguage.googleapis.com', ['PaLM-2']),
  t(14, 'Anthropic Claude', 'native', 'https://api.anthropic.com', ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-3-5-haiku-latest']),
  t(15, 'Baidu', 'native', 'https://aip.baidubce.com', ['ERNIE-4.0-8K', 'ERNIE-3.5-8K'], 'APIKey|SecretKey'),
  t(16, 'Zhipu', 'native', 'https://open.bigmodel.cn/api/paas/v4', ['glm-4', 'glm-4v', 'embedding-2'], 'id.secret'),
  t(17, 'Ali Qwen', 'native', 'https://dashscope.aliyuncs.com', ['qwen-turbo', 'qwen-plus', 'qwen-max', 'text-embedding-v1']),
  t(18, 'Xunfei Spark', 'native', 'wss://spark-api.xf-yun.com', ['SparkDesk-v3.5'], 'APPID|APISecret|APIKey'),
  t(19, '360', 'openai', '', ['360GPT_S2_V9']),
  t(20, 'OpenRouter', 'openai', 'https://openrouter.ai/api', []),
  t(23, 'Tencent (legacy)', 'native', 'https://hunyuan.cloud.tencent.com', ['ChatStd', 'ChatPro'], 'AppId|SecretId|SecretKey'),
  t(24, 'Azure Speech', 'native', '', ['tts-1', 'tts-1-hd'], 'subscription key; other = region'),
  t(25, 'Google Gemini', 'native', 'https://generativelanguage.googleapis.com', ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.0-flash']),
  t(26, 'Baichuan', 'openai', 'https://api.baichuan-ai.com', ['Baichuan2-Turbo', 'Baichuan-Text-Embedding']),
  t(27, 'MiniMax', 'openai', 'https://api.minimax.chat', ['abab6.5s-chat', 'MiniMax-Text-01']),
  t(28, 'DeepSeek', 'openai', 'https://api.deepseek.com', ['deepseek-chat', 'deepseek-reasoner']),
  t(29, 'Moonshot', 'openai', 'https://api.moonshot.cn', ['moonshot-v1-8k', 'moonshot-v1-32k', 'moonshot-v1-128k']),
  t(30, 'Mistral', 'openai', 'https://api.mistral.ai', ['mistral-small-latest', 'mistral-large-latest', 'mistral-embed']),
  t(31, 'Groq', 'openai', 'https://api.groq.com/openai', ['llama-3.3-70b-versatile']),
  t(32, 'Amazon Bedrock', 'native', '', ['claude-3-5-sonnet-20241022'], 'Region|AccessKeyID|SecretAccessKey[|SessionToken]'),
  t(33, 'Lingyi (01.AI)', 'openai', 'https://api.lingyiwanwu.com', ['yi-large']),
  t(34, 'Midjourney', 'task', '', ['mj_imagine', 'mj_variation', 'mj_upscale']),
  t(35, 'Cloudflare AI', 'native', 'https://api.cloudflare.com', ['@cf/meta/llama-3-8b-instruct'], 'accountId|apiToken'),
  t(36, 'Cohere', 'native', 'https://api.cohere.ai', ['command-r', 'command-r-plus']),
  t(37, 'Stability AI', 'native', 'https://api.stability.ai/v2beta', ['sd3', 'stable-image-core']),
  t(38, 'Coze', 'native', 'https://api.coze.com/open_api', []),
  t(39, 'Ollama', 'native', 'https://ollama.com', []),
  t(40, 'Tencent Hunyuan', 'native', 'https://hunyuan.tencentcloudapi.com', ['hunyuan-lite', 'hunyuan-pro'], 'SecretId|SecretKey'),
  t(41, 'Suno', 'task', '', ['suno_lyrics', 'chirp-v3-5']),
  t(42, 'Vertex AI', 'native', '', ['gemini-2.5-pro'], 'service-account JSON; other = Region|ProjectID'),
  t(45, 'SiliconFlow', 'openai', 'https://api.siliconflow.cn', []),
  t(47, 'Jina', 'openai', 'https://api.jina.ai', ['jina-reranker-v2-base-multilingual']),
  t(49, 'GitHub Models', 'openai', 'https://models.inference.ai.azure.com', ['gpt-4o', 'gpt-4o-mini']),
  t(51, 'Recraft AI', 'native', 'https://external.api.recraft.ai', ['recraftv3']),
  t(52, 'Replicate', 'native', 'https://api.replicate.com', []),
  t(53, 'Kling', 'task', 'https://api.klingai.com', []),
  t(54, 'Azure Databricks', 'openai', '', []),
  t(55, 'Azure OpenAI V1', 'native', '', []),
  t(56, 'xAI', 'openai', 'https://api.x.ai', ['grok-4', 'grok-3-mini']),
];

export const CHANNEL_TYPE_BY_ID: ReadonlyMap<number, ChannelType> = new Map(CHANNEL_TYPES.map((c) => [c.id, c]));
