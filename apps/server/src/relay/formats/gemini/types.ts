/** Gemini generateContent wire types (the parts conversion reads; unknown fields kept). */
export interface GeminiPart {
  text?: string;
  /** True on a thought-summary text part. */
  thought?: boolean;
  /** Opaque; must go back exactly where it came from (Gemini 3 rejects tool turns without it). */
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  fileData?: { mimeType?: string; fileUri: string };
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
  executableCode?: { language?: string; code: string };
  codeExecutionResult?: { outcome?: string; output?: string };
  [key: string]: unknown;
}

export interface GeminiContent { role?: 'user' | 'model' | 'function' | string; parts: GeminiPart[] }

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
  parametersJsonSchema?: Record<string, unknown>;
}

export interface GeminiTool {
  functionDeclarations?: GeminiFunctionDeclaration[];
  [key: string]: unknown;
}

export interface GeminiToolConfig {
  functionCallingConfig?: { mode?: 'AUTO' | 'ANY' | 'NONE' | 'VALIDATED' | string; allowedFunctionNames?: string[] };
}

export interface GeminiThinkingConfig { thinkingBudget?: number; includeThoughts?: boolean; thinkingLevel?: string }

export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  candidateCount?: number;
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseMimeType?: string;
  responseSchema?: Record<string, unknown>;
  responseJsonSchema?: Record<string, unknown>;
  responseModalities?: string[];
  thinkingConfig?: GeminiThinkingConfig;
  [key: string]: unknown;
}

export interface GeminiSafetySetting { category: string; threshold: string }

export interface GeminiRequest {
  contents: GeminiContent[];
  systemInstruction?: { role?: string; parts: GeminiPart[] };
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
  generationConfig?: GeminiGenerationConfig;
  safetySettings?: GeminiSafetySetting[];
  [key: string]: unknown;
}

export interface GeminiModalityCount { modality: string; tokenCount?: number }

export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
  promptTokensDetails?: GeminiModalityCount[];
  cacheTokensDetails?: GeminiModalityCount[];
  candidatesTokensDetails?: GeminiModalityCount[];
  [key: string]: unknown;
}

export interface GeminiCandidate {
  content?: GeminiContent;
  finishReason?: string;
  index?: number;
  safetyRatings?: unknown[];
  [key: string]: unknown;
}

export interface GeminiResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string; [key: string]: unknown };
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
  [key: string]: unknown;
}

/** Google's error body. */
export interface GeminiError { error: { code: number; message: string; status: string } }
