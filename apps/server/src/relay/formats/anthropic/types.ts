/** Anthropic Messages API wire types (the parts conversion reads; unknown fields kept). */
export interface AnthropicTextBlock { type: 'text'; text: string; cache_control?: unknown; citations?: unknown }
export type AnthropicSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'text'; media_type: string; data: string }
  | { type: 'file'; file_id: string };
export interface AnthropicImageBlock { type: 'image'; source: AnthropicSource; cache_control?: unknown }
export interface AnthropicDocumentBlock { type: 'document'; source: AnthropicSource; title?: string; cache_control?: unknown }
export interface AnthropicToolUseBlock { type: 'tool_use'; id: string; name: string; input: unknown; cache_control?: unknown }
export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | Array<AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock>;
  is_error?: boolean;
  cache_control?: unknown;
}
export interface AnthropicThinkingBlock { type: 'thinking'; thinking: string; signature: string; cache_control?: unknown }
export interface AnthropicRedactedThinkingBlock { type: 'redacted_thinking'; data: string; cache_control?: unknown }
export interface AnthropicOtherBlock { type: string; [key: string]: unknown }

export type AnthropicBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock;

export interface AnthropicMessage { role: 'user' | 'assistant'; content: string | AnthropicBlock[] }

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema?: Record<string, unknown>;
  type?: string;
  cache_control?: unknown;
  [key: string]: unknown;
}

export type AnthropicToolChoice =
  | { type: 'auto' | 'any' | 'none'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean };

export type AnthropicThinking = { type: 'enabled'; budget_tokens: number } | { type: 'disabled' } | { type: 'adaptive' };

export interface AnthropicRequest {
  model: string;
  max_tokens: number;
  messages: AnthropicMessage[];
  system?: string | AnthropicTextBlock[];
  stop_sequences?: string[];
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stream?: boolean;
  tools?: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
  thinking?: AnthropicThinking;
  metadata?: { user_id?: string };
  [key: string]: unknown;
}

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation?: { ephemeral_5m_input_tokens?: number; ephemeral_1h_input_tokens?: number } | null;
  [key: string]: unknown;
}

export type AnthropicStopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal' | 'model_context_window_exceeded';

export interface AnthropicResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: Array<AnthropicBlock | AnthropicOtherBlock>;
  stop_reason: AnthropicStopReason | string | null;
  stop_sequence: string | null;
  usage: AnthropicUsage;
  [key: string]: unknown;
}

export type AnthropicDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'input_json_delta'; partial_json: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string }
  | { type: 'citations_delta'; citation: unknown };

export type AnthropicStreamEvent =
  | { type: 'message_start'; message: AnthropicResponse }
  | { type: 'content_block_start'; index: number; content_block: AnthropicBlock | AnthropicOtherBlock }
  | { type: 'content_block_delta'; index: number; delta: AnthropicDelta }
  | { type: 'content_block_stop'; index: number }
  | { type: 'message_delta'; delta: { stop_reason: string | null; stop_sequence?: string | null }; usage?: Partial<AnthropicUsage> }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | { type: 'error'; error: { type: string; message: string } };
