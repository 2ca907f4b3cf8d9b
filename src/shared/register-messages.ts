/**
 * The register's (会計) Japanese messages: server refusals of checkouts, corrections, closings, the product catalogue
 * and the register settings. Kept apart from the catalogue in src/shared/messages.ts, which every screen loads
 * first (tests/e2e/customer-bundle-budget.test.ts): only the register and its server use these.
 */
export const REGISTER_MESSAGES = {
  invoiceRegistrationNumberInvalid: '登録番号は「T」と13桁の数字で入力してください。',
  taxRoundingInvalid: '端数処理は切り捨て・四捨五入・切り上げのいずれかを選んでください。',
  openingFloatInvalid: '釣り銭準備金は0円以上の整数で入力してください。',
  productNotFound: '商品が見つかりません。',
  taxRateInvalid: '税率は10%または8%を指定してください。',
  yenAmountInvalid: '金額は0円以上の整数で入力してください。',
  quantityInvalid: '数量は1〜999の整数で入力してください。',
  percentInvalid: '割合は1〜100の整数で入力してください。',
  discountAmountOrPercent: '値引きは金額か割合のどちらか一方を入力してください。',
  checkoutLinesRequired: '明細を1行以上入力してください。',
  checkoutDiscountTooLarge: '値引きが小計を超えています。',
  checkoutTotalTooLarge: '1回の会計の金額が大きすぎます。',
  checkoutServiceTaxRate: '施術・オプション・指名料の税率は10%です。',
  checkoutProductTaxRate: '商品の税率が登録内容と異なります。',
  checkoutNonCashOverTotal: '現金以外のお支払いが合計金額を超えています。お釣りが出せるのは現金のみです。',
  checkoutPaymentsShort: 'お支払い額が合計金額に足りません。',
  checkoutPaymentsOver: 'お支払い額が合計金額を超えています。お釣りが出せるのは現金のみです。',
  checkoutCashReceivedShort: 'お預かり金額が現金でのお支払い額より少なくなっています。',
  checkoutReservationOrCustomer: '予約か顧客のどちらか一方を指定してください。',
  checkoutNotFound: '会計が見つかりません。',
  checkoutAlreadyDone: 'この予約はすでに会計済みです。',
  checkoutNotYetDue: '予約日より前に会計することはできません。',
  checkoutReservationNotPayable: 'キャンセル・無断欠席の予約は会計できません。',
  registerDayClosed: 'この日はレジ締めが済んでいるため、会計・取消・返金はできません。',
  registerAlreadyClosed: 'この日のレジ締めはすでに済んでいます。',
  registerCloseFutureDate: '今日より後の日付のレジ締めはできません。',
  checkoutAlreadyVoided: 'この会計はすでに取り消されています。',
  checkoutVoidAfterRefund: '返金のある会計は取り消せません。返金をご利用ください。',
  refundUnknownLine: '返金する明細が見つかりません。',
  refundTooMuch: '返金する数量が残りの数量を超えています。',
  refundNothingLeft: 'この会計に返金できるものは残っていません。',
  dateRangeInvalid: '期間の指定が正しくありません（開始日は終了日以前、最長366日）。',
} as const;
