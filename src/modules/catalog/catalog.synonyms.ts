/**
 * The shared synonym table: each line lists phrases that mean the same thing to someone
 * searching the catalog. A query containing one of them finds listings with any of them.
 * Listing-specific names go in the listing's `aliases` instead. Keep groups narrow: every phrase
 * added here widens every search that uses one of its equivalents.
 */
export const SYNONYMS: readonly (readonly string[])[] = [
  ['speech to text', 'stt', 'transcription', 'speech recognition', 'asr'],
  ['text to speech', 'tts', 'speech synthesis'],
  ['web scraping', 'web scraper', 'crawler', 'web crawling'],
  ['vector database', 'vector store', 'vector db', 'vectordb'],
  ['llm', 'large language model', 'language model'],
  ['observability', 'tracing', 'llm monitoring'],
  ['evaluation', 'evals', 'eval'],
  ['browser automation', 'headless browser', 'web automation'],
  ['coding agent', 'ai pair programmer', 'coding assistant', 'code assistant'],
  ['code review', 'pull request review', 'pr review'],
  ['workflow orchestration', 'workflow engine', 'orchestration'],
  ['document parsing', 'pdf parsing', 'document extraction'],
  ['rag', 'retrieval augmented generation'],
  ['mcp', 'model context protocol'],
  ['a2a', 'agent2agent', 'agent to agent'],
  ['llm gateway', 'llm proxy', 'model router'],
  ['api client', 'http client', 'rest client'],
  ['prompt injection', 'jailbreak'],
  ['red teaming', 'red team'],
  ['multi agent', 'multiagent', 'agent team'],
  ['memory', 'long term memory'],
  ['vs code', 'vscode', 'visual studio code'],
  ['dotnet', 'net', 'csharp'],
  ['postgres', 'postgresql'],
  ['local llm', 'local model', 'open weight model'],
];
