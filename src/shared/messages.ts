/**
 * Japanese messages shown to people. SPEC.md quotes many of these word for word; keep them exact.
 * Server error bodies carry one of these as `detail`.
 */
export const MESSAGES = {
  // SPEC.md §5 validation
  furiganaKatakana: 'フリガナはカタカナで入力してください。',
  emailInvalid: '有効なメールアドレスを入力してください。',
  phoneDigits: '電話番号は数字のみで入力してください。',
  requiredMissing: '必須項目が不足しています。',
  tokensMissing: 'レスポンスにトークンが含まれていません',
  // SPEC.md §8
  passwordLoginFailed: 'ユーザー名またはパスワードが違います。',
  sessionExpired: 'セッションが切れました。再度ログインしてください。',
  pageNotFound: '404 - ページが見つかりません',
  initialLoadFailed: '初期情報の取得に失敗しました。',
  // Browser-side transport failures (no HTTP answer at all)
  networkError: 'ネットワークに接続できませんでした。通信環境を確認して再度お試しください。',
  // Server-side errors (DESIGN.md §5 error bodies)
  invalidInput: '入力内容に誤りがあります。',
  fieldRequired: 'この項目は必須です。',
  tooLong: '入力が長すぎます。',
  tokenNotValid: 'トークンが無効か、有効期限が切れています。',
  notAuthenticated: 'ログインが必要です。',
  forbidden: 'この操作を行う権限がありません。',
  notFound: '見つかりません。',
  tooManyLoginAttempts: 'ログインの試行回数が多すぎます。しばらく待ってから再度お試しください。',
  tooManyRequests: 'リクエストが多すぎます。しばらく待ってから再度お試しください。',
  lineLoginFailed: 'LINEログインに失敗しました。もう一度お試しください。',
  serverError: 'サーバーでエラーが発生しました。時間をおいて再度お試しください。',
  bodyTooLarge: '送信されたデータが大きすぎます。',
  unsupportedMediaType: 'この形式のデータは受け付けられません。',
} as const;
