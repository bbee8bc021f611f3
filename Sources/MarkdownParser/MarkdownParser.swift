// MarkdownParser
