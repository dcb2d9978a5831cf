import type { ResponsesUsage } from '../openai/usage.js';

/** OpenAI Responses API wire types (the parts conversion reads; unknown fields kept). */
export type ResponsesInputContent =
  | { type: 'input_text'; text: string }
  | { type: 'output_text'; text: string; annotations?: unknown[] }
  | { type: 'input_image'; image_url?: string; file_id?: string; detail?: string }
  | { type: 'input_file'; file_data?: string; file_id?: string; filename?: string; file_url?: string }
  | { type: 'refusal'; refusal: string };

export interface ResponsesMessageItem {
  type?: 'message';
  id?: string;
  role: 'user' | 'assistant' | 'system' | 'developer';
  content: string | ResponsesInputContent[];
  status?: string;
}
export interface ResponsesFunctionCallItem { type: 'function_call'; id?: string; call_id: string; name: string; arguments: string; status?: string }
export interface ResponsesFunctionCallOutputItem { type: 'function_call_output'; id?: string; call_id: string; output: string | ResponsesInputContent[] }
export interface ResponsesReasoningItem {
  type: 'reasoning';
  id: string;
  summary: Array<{ type: 'summary_text'; text: string }>;
  content?: Array<{ type: 'reasoning_text'; text: string }>;
  encrypted_content?: string | null;
}
export interface ResponsesOtherItem { type: string; [key: string]: unknown }
export type ResponsesInputItem = ResponsesMessageItem | ResponsesFunctionCallItem | ResponsesFunctionCallOutputItem | ResponsesReasoningItem;

export interface ResponsesFunctionTool { type: 'function'; name: string; description?: string | null; parameters?: Record<string, unknown> | null; strict?: boolean | null }

export type ResponsesToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; name: string } | { type: string; [key: string]: unknown };

export type ResponsesTextFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean; description?: string };

export interface ResponsesRequest {
  model: string;
  input?: string | Array<ResponsesInputItem | ResponsesOtherItem>;
  instructions?: string | null;
  tools?: Array<ResponsesFunctionTool | { type: string; [key: string]: unknown }>;
  tool_choice?: ResponsesToolChoice;
  parallel_tool_calls?: boolean;
  reasoning?: { effort?: string | null; summary?: string | null } | null;
  max_output_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  text?: { format?: ResponsesTextFormat; verbosity?: string } | null;
  stream?: boolean;
  store?: boolean;
  previous_response_id?: string | null;
  user?: string;
  metadata?: Record<string, string>;
  prompt_cache_key?: string;
  [key: string]: unknown;
}

export interface ResponsesOutputMessage {
  id: string;
  type: 'message';
  status: 'in_progress' | 'completed' | 'incomplete';
  role: 'assistant';
  content: Array<{ type: 'output_text'; text: string; annotations: unknown[]; logprobs?: unknown[] }>;
}
export interface ResponsesOutputFunctionCall { id: string; type: 'function_call'; status: 'in_progress' | 'completed'; call_id: string; name: string; arguments: string }
export interface ResponsesOutputReasoning { id: string; type: 'reasoning'; summary: Array<{ type: 'summary_text'; text: string }> }
export type ResponsesOutputItem = ResponsesOutputMessage | ResponsesOutputFunctionCall | ResponsesOutputReasoning;

export interface ResponsesObject {
  id: string;
  object: 'response';
  created_at: number;
  status: 'in_progress' | 'completed' | 'incomplete' | 'failed';
  model: string;
  output: ResponsesOutputItem[];
  usage: ResponsesUsage | null;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  [key: string]: unknown;
}

/** One streaming event; every event carries a monotonically increasing sequence_number. */
export interface ResponsesEvent { type: string; sequence_number: number; [key: string]: unknown }
