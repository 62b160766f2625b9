/**
 * The concept map: each line lists phrases that mean the same need to someone searching the
 * catalog (speech-to-text ≈ transcribe ≈ dictation). A query containing one of them also finds
 * listings with any of the others, ranked a little below listings with the words as typed.
 * Listing-specific names go in the listing's `aliases`, and plain-language needs in its
 * `use_cases`. Keep lines narrow: every phrase added widens every search that uses one of its
 * equivalents. A query's stop words are ignored when its phrases are recognised ("speech to
 * text" = "speech text"), unless they join the words otherwise than the phrase does ("speech
 * from text", "text from images" is not "text to image"), but an equivalent of several words is found in a listing only where
 * all its words stand together, in order ("speech-to-text", not "speech from text"). A phrase
 * that is broader than a line, not the same need, gets a line of its own and a NARROWER pair.
 * Tested in test/discovery/text.test.ts.
 */
export const SYNONYMS: readonly (readonly string[])[] = [
  [
    'speech to text',
    'stt',
    'transcription',
    'transcribe',
    'speech recognition',
    'asr',
    'audio to text',
    'voice to text',
    'dictation',
  ],
  [
    'text to speech',
    'tts',
    'speech synthesis',
    'read aloud',
    'read text aloud',
    'read out loud',
    'voice generation',
  ],
  ['offline', 'on device', 'without internet', 'without sending data', 'private'],
  ['local'],
  ['self hosted', 'on premises'],
  ['web scraping', 'web scraper', 'scrape', 'crawler', 'web crawling', 'crawl'],
  [
    'vector database',
    'vector store',
    'vector db',
    'vectordb',
    'vector search',
    'embeddings database',
  ],
  ['similarity search', 'semantic search', 'nearest neighbour', 'knn'],
  ['llm', 'large language model', 'language model'],
  ['observability', 'tracing', 'llm monitoring', 'monitor', 'telemetry'],
  ['evaluation', 'evals', 'eval', 'evaluate', 'benchmark'],
  [
    'browser automation',
    'headless browser',
    'web automation',
    'drive a browser',
    'control a browser',
    'browse websites',
    'browser agent',
  ],
  [
    'coding agent',
    'ai pair programmer',
    'pair programming',
    'coding assistant',
    'code assistant',
    'writes code',
  ],
  ['code review', 'pull request review', 'pr review', 'review pull requests', 'reviewer'],
  ['pull request', 'pr'],
  ['workflow orchestration', 'workflow engine', 'orchestration', 'orchestrator'],
  ['scheduler', 'cron', 'recurring jobs', 'schedule', 'scheduled jobs'],
  ['durable execution', 'survive failures', 'survive crashes', 'retry automatically'],
  ['document parsing', 'pdf parsing', 'document extraction', 'parse pdf', 'pdf to markdown'],
  [
    'ocr',
    'optical character recognition',
    'scanned documents',
    'text in images',
    'text from images',
    'image to text',
  ],
  ['image generation', 'text to image', 'generate images', 'image generator', 'txt2img'],
  [
    'rag',
    'retrieval augmented generation',
    'chat with documents',
    'company documents',
    'question answering',
    'knowledge base',
  ],
  ['mcp', 'model context protocol'],
  // Brands written as one word or two.
  ['openai', 'open ai'],
  ['hugging face', 'huggingface'],
  ['autogen', 'auto gen'],
  ['a2a', 'agent2agent', 'agent to agent'],
  ['llm gateway', 'llm proxy', 'model router', 'ai gateway'],
  ['api client', 'http client', 'rest client'],
  ['guardrails', 'prompt injection', 'jailbreak', 'llm safety', 'content filter'],
  ['red teaming', 'red team'],
  ['multi agent', 'multiagent', 'agent team', 'several agents', 'agents working together'],
  ['memory', 'long term memory', 'remember', 'persistent memory'],
  ['vs code', 'vscode', 'visual studio code'],
  ['dotnet', 'net', 'csharp'],
  ['postgres', 'postgresql', 'pg'],
  ['local llm', 'local model', 'open weight model', 'run models locally'],
  ['inference server', 'model serving', 'serve llm'],
  ['web search', 'search api', 'search engine results', 'serp'],
  ['structured output', 'structured data', 'json output'],
  ['no code', 'low code', 'visual builder', 'drag and drop'],
  ['terminal', 'command line', 'cli', 'shell'],
  ['embeddings', 'embedding model', 'text embeddings', 'vectors'],
  ['reranking', 'reranker', 'rerank'],
  ['api testing', 'test apis', 'api tests'],
  ['mock server', 'mock api'],
  ['data pipelines', 'etl'],
  ['knowledge graph', 'graph rag', 'graphrag'],
];

/**
 * Needs narrower than others, as pairs of a phrase of each line: a query with a phrase of the
 * broader line also finds the phrases of the narrower one, as equivalents, but not the other way
 * round. What runs locally may still call a service on the internet ("a CLI that runs locally
 * and calls the API"), and self-hosted software may need a server: a search for `offline` should
 * not find them, while a search for `local` or `self-hosted` finds what works offline.
 * Followed transitively.
 */
export const NARROWER: readonly (readonly [broader: string, narrower: string])[] = [
  ['local', 'offline'],
  ['self hosted', 'local'],
];
