/** Hiragana typed into a search also finds katakana furigana (やまだ finds ヤマダ): the server and the offline reader agree. */
export function toKatakana(text: string): string {
  return text.replace(/[\u3041-\u3096]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0x60));
}
