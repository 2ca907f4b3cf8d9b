/** The bare HTML of the LINE emulator's and the other /dev pages (emulator.ts, inbox.ts, the dev mailbox). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>body{font-family:sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}
button{display:block;margin:.5rem 0;padding:.6rem 1rem;background:#06c755;color:#fff;border:0;border-radius:6px;font-size:1rem}
input{font-size:1rem;padding:.4rem;width:100%;box-sizing:border-box}fieldset{border:1px solid #ccc;margin-bottom:1rem}</style>
</head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}
