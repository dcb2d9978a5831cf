/** What the bot says, in the four console languages (zh_CN when the user's language is another). */
export type Lang = 'zh_CN' | 'zh_HK' | 'en_US' | 'ja_JP';

export interface BalanceFigures {
  quota: string;
  used: string;
  requests: number;
}

export interface Texts {
  describe: Record<'start' | 'help' | 'bind' | 'unbind' | 'balance' | 'recharge' | 'apikey' | 'aff', string>;
  intro: string;
  commandsTitle: string;
  privateOnly: string;
  needBind: string;
  bindUsage: string;
  bindOk: (username: string) => string;
  bindInvalid: string;
  bindElsewhere: string;
  telegramTaken: string;
  unbindOk: string;
  balance: (b: BalanceFigures) => string;
  rechargeUsage: string;
  rechargeOk: (amount: string) => string;
  rechargeFailed: (reason: string) => string;
  noTokens: string;
  tokensTitle: string;
  token: (name: string, key: string, status: string, remain: string) => string;
  unlimited: string;
  tokenStatus: Record<number, string>;
  aff: (link: string, count: number, quota: string, history: string) => string;
  failed: string;
  lowBalance: (balance: string, threshold: string) => string;
}

const zhCN: Texts = {
  describe: { start: '开始使用', help: '帮助', bind: '绑定账号', unbind: '解绑账号', balance: '查询余额', recharge: '兑换码充值', apikey: '我的令牌', aff: '邀请链接' },
  intro: '这是 One Hub 的机器人：绑定账号后可以查询余额、用兑换码充值、查看令牌和邀请链接。',
  commandsTitle: '可用命令：',
  privateOnly: '请在与机器人的私聊中使用此命令。',
  needBind: '请先绑定账号：/bind <访问令牌>（在控制台“个人设置”中生成访问令牌）。',
  bindUsage: '用法：/bind <访问令牌>',
  bindOk: (u) => `绑定成功，账号：${u}。含有令牌的消息已删除。`,
  bindInvalid: '访问令牌无效。',
  bindElsewhere: '该账号已绑定其他 Telegram 用户。',
  telegramTaken: '你的 Telegram 已绑定其他账号，请先 /unbind。',
  unbindOk: '已解除绑定。',
  balance: (b) => `余额：${b.quota}\n已用：${b.used}\n请求次数：${b.requests}`,
  rechargeUsage: '用法：/recharge <兑换码>',
  rechargeOk: (a) => `充值成功：${a}`,
  rechargeFailed: (r) => `充值失败：${r}`,
  noTokens: '你还没有令牌。',
  tokensTitle: '你的令牌：',
  token: (n, k, s, r) => `${n}：${k}（${s}，剩余 ${r}）`,
  unlimited: '无限',
  tokenStatus: { 1: '启用', 2: '禁用', 3: '已过期', 4: '已耗尽' },
  aff: (l, c, q, h) => `邀请链接：${l}\n已邀请：${c} 人\n待使用收益：${q}\n总收益：${h}`,
  failed: '出错了，请稍后再试。',
  lowBalance: (b, t) => `你的余额 ${b} 已低于提醒阈值 ${t}，请及时充值。`,
};

const zhHK: Texts = {
  describe: { start: '開始使用', help: '幫助', bind: '綁定帳號', unbind: '解除綁定', balance: '查詢餘額', recharge: '兌換碼充值', apikey: '我的令牌', aff: '邀請連結' },
  intro: '這是 One Hub 的機器人：綁定帳號後可以查詢餘額、用兌換碼充值、查看令牌和邀請連結。',
  commandsTitle: '可用指令：',
  privateOnly: '請在與機器人的私聊中使用此指令。',
  needBind: '請先綁定帳號：/bind <存取令牌>（在控制台「個人設定」中產生存取令牌）。',
  bindUsage: '用法：/bind <存取令牌>',
  bindOk: (u) => `綁定成功，帳號：${u}。含有令牌的訊息已刪除。`,
  bindInvalid: '存取令牌無效。',
  bindElsewhere: '此帳號已綁定其他 Telegram 使用者。',
  telegramTaken: '你的 Telegram 已綁定其他帳號，請先 /unbind。',
  unbindOk: '已解除綁定。',
  balance: (b) => `餘額：${b.quota}\n已用：${b.used}\n請求次數：${b.requests}`,
  rechargeUsage: '用法：/recharge <兌換碼>',
  rechargeOk: (a) => `充值成功：${a}`,
  rechargeFailed: (r) => `充值失敗：${r}`,
  noTokens: '你還沒有令牌。',
  tokensTitle: '你的令牌：',
  token: (n, k, s, r) => `${n}：${k}（${s}，剩餘 ${r}）`,
  unlimited: '無限',
  tokenStatus: { 1: '啟用', 2: '停用', 3: '已過期', 4: '已耗盡' },
  aff: (l, c, q, h) => `邀請連結：${l}\n已邀請：${c} 人\n待使用收益：${q}\n總收益：${h}`,
  failed: '出錯了，請稍後再試。',
  lowBalance: (b, t) => `你的餘額 ${b} 已低於提醒門檻 ${t}，請及時充值。`,
};

const enUS: Texts = {
  describe: { start: 'Get started', help: 'Help', bind: 'Link your account', unbind: 'Unlink your account', balance: 'Balance', recharge: 'Redeem a code', apikey: 'Your API keys', aff: 'Invitation link' },
  intro: 'This is the One Hub bot: once your account is linked you can check your balance, redeem codes, list your keys and get your invitation link.',
  commandsTitle: 'Commands:',
  privateOnly: 'Please use this command in a private chat with the bot.',
  needBind: 'Link your account first: /bind <access token> (create the access token in the console settings).',
  bindUsage: 'Usage: /bind <access token>',
  bindOk: (u) => `Linked to ${u}. The message with your token was deleted.`,
  bindInvalid: 'That access token is not valid.',
  bindElsewhere: 'That account is already linked to another Telegram user.',
  telegramTaken: 'Your Telegram is already linked to another account; /unbind first.',
  unbindOk: 'Your account is unlinked.',
  balance: (b) => `Balance: ${b.quota}\nUsed: ${b.used}\nRequests: ${b.requests}`,
  rechargeUsage: 'Usage: /recharge <code>',
  rechargeOk: (a) => `Redeemed: ${a}`,
  rechargeFailed: (r) => `Redeem failed: ${r}`,
  noTokens: 'You have no API keys yet.',
  tokensTitle: 'Your API keys:',
  token: (n, k, s, r) => `${n}: ${k} (${s}, ${r} left)`,
  unlimited: 'unlimited',
  tokenStatus: { 1: 'enabled', 2: 'disabled', 3: 'expired', 4: 'exhausted' },
  aff: (l, c, q, h) => `Invitation link: ${l}\nInvited: ${c}\nRewards to use: ${q}\nRewards in total: ${h}`,
  failed: 'Something went wrong, please try again later.',
  lowBalance: (b, t) => `Your balance ${b} is below your alert threshold ${t}. Please top up.`,
};

const jaJP: Texts = {
  describe: { start: 'はじめる', help: 'ヘルプ', bind: 'アカウント連携', unbind: '連携解除', balance: '残高照会', recharge: '引換コードでチャージ', apikey: 'APIキー一覧', aff: '招待リンク' },
  intro: 'One Hub のボットです。アカウントを連携すると、残高の確認、引換コードでのチャージ、APIキーと招待リンクの確認ができます。',
  commandsTitle: 'コマンド：',
  privateOnly: 'このコマンドはボットとの個別チャットで使ってください。',
  needBind: 'まずアカウントを連携してください：/bind <アクセストークン>（コンソールの設定で発行できます）。',
  bindUsage: '使い方：/bind <アクセストークン>',
  bindOk: (u) => `${u} と連携しました。トークンを含むメッセージは削除しました。`,
  bindInvalid: 'アクセストークンが無効です。',
  bindElsewhere: 'このアカウントは別の Telegram ユーザーと連携済みです。',
  telegramTaken: 'この Telegram は別のアカウントと連携済みです。先に /unbind してください。',
  unbindOk: '連携を解除しました。',
  balance: (b) => `残高：${b.quota}\n使用済み：${b.used}\nリクエスト数：${b.requests}`,
  rechargeUsage: '使い方：/recharge <引換コード>',
  rechargeOk: (a) => `チャージしました：${a}`,
  rechargeFailed: (r) => `チャージに失敗しました：${r}`,
  noTokens: 'APIキーはまだありません。',
  tokensTitle: 'あなたのAPIキー：',
  token: (n, k, s, r) => `${n}：${k}（${s}、残り ${r}）`,
  unlimited: '無制限',
  tokenStatus: { 1: '有効', 2: '無効', 3: '期限切れ', 4: '使い切り' },
  aff: (l, c, q, h) => `招待リンク：${l}\n招待人数：${c}\n未使用の報酬：${q}\n報酬合計：${h}`,
  failed: 'エラーが発生しました。しばらくしてから再試行してください。',
  lowBalance: (b, t) => `残高 ${b} が通知しきい値 ${t} を下回りました。チャージしてください。`,
};

export const TEXTS: Record<Lang, Texts> = { zh_CN: zhCN, zh_HK: zhHK, en_US: enUS, ja_JP: jaJP };

/** Telegram's IETF language tag → a console language. */
export function langOf(code: string | undefined): Lang {
  const c = (code ?? '').toLowerCase();
  if (c.startsWith('en')) return 'en_US';
  if (c.startsWith('ja')) return 'ja_JP';
  if (/^zh-(hk|tw|mo|hant)/.test(c)) return 'zh_HK';
  return 'zh_CN';
}

export function textsFor(code: string | undefined): Texts {
  return TEXTS[langOf(code)];
}
