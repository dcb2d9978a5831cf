import type { z } from 'zod';
import {
  BatchIdsBody, ChangeQuotaBody, ChannelBody, ChannelCheckRequest, ChannelListQuery, ChannelTestQuery, CreateOrderBody, CreateRedemptionBody, CreateUserBody, DeleteLogsQuery, DeletePricesBody, EmailBindQuery, EmailQuery, InvoiceDetailQuery, JobSwitchBody, LogListQuery, LoginBody, ManageUserBody, MidjourneyListQuery, ModelInfoBody, ModelOwnerBody, MultiplePriceBody, OptionUpdate, OrderListQuery, OrderStatusQuery, PageQuery, PaymentBody, PaymentListQuery, PriceBody, PriceSyncBody, PriceSyncQuery, ProviderModelsBody, RegisterBody, ResetPasswordBody, TaskListQuery, TelegramMenuBody, TokenAdminSearchQuery, TokenBody, TopupBody, UnbindBody, UpdateChannelBody, UpdatePaymentBody, UpdateRedemptionBody, UpdateSelfBody, UpdateUserBody, UserGroupBody, UserGroupListQuery, WeChatBindQuery,
  PlanBody, UpdatePlanBody, GrantPlanBody, BuyPlanBody, PlanFallbackBody, SubscriptionListQuery,
} from './index.js';

export interface RouteSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
}

/**
 * The contract schema each console route validates its body and query with, by `METHOD /path`
 * (Fastify syntax). Built on first use: this module is re-exported by index.ts, which it imports.
 */
export function apiSchemas(): Record<string, RouteSchemas> {
  return {
    'POST /api/channel/provider_models_list': { body: ProviderModelsBody },
    'GET /api/channel/test/:id': { query: ChannelTestQuery },
    'GET /api/channel/': { query: ChannelListQuery },
    'DELETE /api/channel/batch': { body: BatchIdsBody },
    'PUT /api/channel/batch/del_model': { body: BatchIdsBody },
    'PUT /api/channel/batch/azure_api': { body: BatchIdsBody },
    'POST /api/channel/': { body: ChannelBody },
    'PUT /api/channel/': { body: UpdateChannelBody },
    'GET /api/user/invoice': { query: PageQuery },
    'GET /api/user/invoice/detail': { query: InvoiceDetailQuery },
    'PUT /api/system_info/jobs/:name': { body: JobSwitchBody },
    'GET /api/log/': { query: LogListQuery },
    'GET /api/log/self': { query: LogListQuery },
    'GET /api/log/stat': { query: LogListQuery },
    'GET /api/log/self/stat': { query: LogListQuery },
    'DELETE /api/log/': { query: DeleteLogsQuery },
    'PUT /api/option/': { body: OptionUpdate },
    'GET /api/payment/': { query: PaymentListQuery },
    'GET /api/payment/order': { query: OrderListQuery },
    'POST /api/payment/': { body: PaymentBody },
    'PUT /api/payment/': { body: UpdatePaymentBody },
    'POST /api/user/order': { body: CreateOrderBody },
    'POST /api/plan/': { body: PlanBody },
    'PUT /api/plan/': { body: UpdatePlanBody },
    'POST /api/plan/grant': { body: GrantPlanBody },
    'GET /api/plan/subscription': { query: SubscriptionListQuery },
    'POST /api/plan/buy': { body: BuyPlanBody },
    'PUT /api/plan/self/fallback': { body: PlanFallbackBody },
    'GET /api/user/order/status': { query: OrderStatusQuery },
    'POST /api/model_ownedby/': { body: ModelOwnerBody },
    'PUT /api/model_ownedby/': { body: ModelOwnerBody },
    'POST /api/model_info/': { body: ModelInfoBody },
    'PUT /api/model_info/': { body: ModelInfoBody },
    'POST /api/prices/single': { body: PriceBody },
    'PUT /api/prices/single/*': { body: PriceBody },
    'POST /api/prices/multiple': { body: MultiplePriceBody },
    'PUT /api/prices/multiple/delete': { body: DeletePricesBody },
    'POST /api/prices/sync': { body: PriceSyncBody, query: PriceSyncQuery },
    'GET /api/redemption/': { query: PageQuery },
    'POST /api/redemption/': { body: CreateRedemptionBody },
    'PUT /api/redemption/': { body: UpdateRedemptionBody },
    'GET /api/mj/': { query: MidjourneyListQuery },
    'GET /api/mj/self': { query: MidjourneyListQuery },
    'GET /api/task/': { query: TaskListQuery },
    'GET /api/task/self': { query: TaskListQuery },
    'GET /api/option/telegram/': { query: PageQuery },
    'POST /api/option/telegram/': { body: TelegramMenuBody },
    'GET /api/token/': { query: PageQuery },
    'GET /api/token/admin/search': { query: TokenAdminSearchQuery },
    'POST /api/token/': { body: TokenBody },
    'GET /api/user_group/': { query: UserGroupListQuery },
    'POST /api/user_group/': { body: UserGroupBody },
    'POST /api/user/login': { body: LoginBody },
    'POST /api/user/register': { body: RegisterBody },
    'GET /api/verification': { query: EmailQuery },
    'GET /api/reset_password': { query: EmailQuery },
    'POST /api/user/reset': { body: ResetPasswordBody },
    'PUT /api/user/self': { body: UpdateSelfBody },
    'POST /api/user/unbind': { body: UnbindBody },
    'GET /api/oauth/email/bind': { query: EmailBindQuery },
    'GET /api/oauth/wechat/bind': { query: WeChatBindQuery },
    'POST /api/user/topup': { body: TopupBody },
    'GET /api/user/': { query: PageQuery },
    'POST /api/user/': { body: CreateUserBody },
    'PUT /api/user/': { body: UpdateUserBody },
    'POST /api/user/manage': { body: ManageUserBody },
    'POST /api/user/quota/:id': { body: ChangeQuotaBody },
    'POST /api/sse/channel/check': { body: ChannelCheckRequest },
  };
}
