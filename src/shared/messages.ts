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
  // Booking and reservations (server rules of DESIGN.md §5)
  salonNotFound: 'サロン情報が見つかりませんでした。',
  serviceNotFound: 'メニューが見つかりません。',
  reservationNotFound: '予約が見つかりません。',
  customerNotFound: '顧客情報が見つかりません。',
  staffNotFound: 'スタッフが見つかりません。',
  invalidDate: '日付の形式が正しくありません。',
  invalidDateTime: '日時の形式が正しくありません。',
  offGridTime: '開始時刻は30分単位で指定してください。',
  pastDateTime: '過去の日時は指定できません。',
  slotUnavailable: '申し訳ありません。この時間はご予約いただけなくなりました。別の時間をお選びください。',
  staffTimeTaken: 'この時間には既に別の予約があります。別の時間を選んでください。',
  reservationLimit: (limit: number) => `同時にお取りできるご予約は${limit}件までです。`,
  staleStatus: 'この予約は既に更新されています。最新の状態を確認してください。',
  cancellationDeadlinePassed: 'キャンセル期限を過ぎているため、オンラインではキャンセルできません。お手数ですがサロンまでお電話ください。',
  notYetStarted: '開始前の予約は完了・無断欠席にできません。',
  noUpcomingReservation: '予約が見つかりませんでした。',
  idempotencyKeyReused: '同じIdempotency-Keyが別の内容で使われています。',
  idempotencyInFlight: '同じリクエストを処理中です。しばらくしてから再度お試しください。',
} as const;
