/**
 * sandbox_screenshot's answer: over MCP a PNG image item and a text item with width and
 * height (the MCP controller sends `content()`); over REST and the CLI the same as JSON,
 * the PNG in base64.
 */
export class ImageAnswer {
  constructor(
    readonly png: Buffer,
    readonly width: number,
    readonly height: number,
  ) {}

  content() {
    return [
      { type: 'image' as const, data: this.png.toString('base64'), mimeType: 'image/png' },
      { type: 'text' as const, text: JSON.stringify({ width: this.width, height: this.height }) },
    ];
  }

  toJSON() {
    return {
      width: this.width,
      height: this.height,
      mime_type: 'image/png',
      data: this.png.toString('base64'),
    };
  }
}
