// The types the front-ends send and read, checked against the services' published OpenAPI documents
// (api.ts beside this file is generated from them, joined). A service whose document changes under a
// front-end breaks this file's compilation, and so the typecheck of @shop/contracts and of every
// front-end that imports it (index.ts re-exports the result): requests must be what the route takes,
// answers must be what the front-end reads.
import type { ErrorResponse } from '../http/error-response';
import type {
  MyOrdersQuery,
  Order,
  OrderDeleted,
  OrderListQuery,
  PayOrderRequest,
  PlaceOrderRequest,
} from '../orders/order';
import type { Product, ProductDeletedResponse, ProductInput, ProductSearchQuery } from '../products/product';
import type { ProductFacets, ProductFilterQuery } from '../products/product-facets';
import type { UploadImageResponse } from '../media/media-upload';
import type { SiteSettings, UpdateSiteSettingsRequest } from '../settings/site-settings';
import type { ResetPasswordRequest } from '../users/password-recovery';
import type { Confirmation, UserInfo, UserListQuery, UserSummary } from '../users/user';
import type { UpdateWalletRequest, Wallet } from '../wallet/wallet';
import type { components, paths as Api } from './api';

/** The JSON body an operation takes. */
type BodyOf<Operation> = Operation extends { requestBody?: { content: { 'application/json': infer Body } } }
  ? Body
  : never;

/** The JSON an operation answers with a status. */
type AnswerOf<Operation, Status extends number> = Operation extends {
  responses: { [S in Status]: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;

/** The query parameters an operation takes. */
type QueryOf<Operation> = Operation extends { parameters: { query?: infer Query } }
  ? NonNullable<Query>
  : never;

/** Every value of `From` is a value of `To` (and `From` is something). */
type Fits<From, To> = [From] extends [never] ? false : [From] extends [To] ? true : false;

/** Fails to compile unless `T` is `true`: the check's name says what no longer fits. */
type Holds<T extends true> = T;

/**
 * Requests: what the front-end sends `Fits` what the route takes. Answers: what the route answers
 * `Fits` what the front-end reads. Each entry is named for the call it checks.
 */
export interface ContractsMatchDocuments {
  'GET /api/products': Holds<Fits<AnswerOf<Api['/api/products']['get'], 200>, Product[]>>;
  'GET /api/products query': Holds<Fits<ProductSearchQuery, QueryOf<Api['/api/products']['get']>>>;
  'GET /api/products/facets': Holds<Fits<AnswerOf<Api['/api/products/facets']['get'], 200>, ProductFacets>>;
  'GET /api/products/facets query': Holds<
    Fits<ProductFilterQuery, QueryOf<Api['/api/products/facets']['get']>>
  >;
  'GET /api/products/categories': Holds<
    Fits<AnswerOf<Api['/api/products/categories']['get'], 200>, string[]>
  >;
  'GET /api/products/category/{category}': Holds<
    Fits<AnswerOf<Api['/api/products/category/{category}']['get'], 200>, Product[]>
  >;
  'GET /api/products/slug/{slug}': Holds<
    Fits<AnswerOf<Api['/api/products/slug/{slug}']['get'], 200>, Product>
  >;
  'GET /api/products/{id}': Holds<Fits<AnswerOf<Api['/api/products/{id}']['get'], 200>, Product>>;
  'POST /api/listings/create body': Holds<Fits<ProductInput, BodyOf<Api['/api/listings/create']['post']>>>;
  'POST /api/listings/create': Holds<Fits<AnswerOf<Api['/api/listings/create']['post'], 201>, Product>>;
  'POST /api/products/update/{productId} body': Holds<
    Fits<ProductInput, BodyOf<Api['/api/products/update/{productId}']['post']>>
  >;
  'POST /api/products/update/{productId}': Holds<
    Fits<AnswerOf<Api['/api/products/update/{productId}']['post'], 200>, Product>
  >;
  'DELETE /api/products/delete/{id}': Holds<
    Fits<AnswerOf<Api['/api/products/delete/{id}']['delete'], 200>, ProductDeletedResponse>
  >;

  'POST /api/orders body': Holds<Fits<PlaceOrderRequest, BodyOf<Api['/api/orders']['post']>>>;
  'POST /api/orders': Holds<Fits<AnswerOf<Api['/api/orders']['post'], 201>, Order>>;
  'GET /api/orders': Holds<Fits<AnswerOf<Api['/api/orders']['get'], 200>, Order[]>>;
  'GET /api/orders query': Holds<Fits<OrderListQuery, QueryOf<Api['/api/orders']['get']>>>;
  'GET /api/orders/mine': Holds<Fits<AnswerOf<Api['/api/orders/mine']['get'], 200>, Order[]>>;
  'GET /api/orders/mine query': Holds<Fits<MyOrdersQuery, QueryOf<Api['/api/orders/mine']['get']>>>;
  'GET /api/orders/{id}': Holds<Fits<AnswerOf<Api['/api/orders/{id}']['get'], 200>, Order>>;
  'PUT /api/orders/{orderId}/pay body': Holds<
    Fits<PayOrderRequest, BodyOf<Api['/api/orders/{orderId}/pay']['put']>>
  >;
  'PUT /api/orders/{orderId}/pay': Holds<Fits<AnswerOf<Api['/api/orders/{orderId}/pay']['put'], 200>, Order>>;
  'PUT /api/orders/markpaid/{id}': Holds<Fits<AnswerOf<Api['/api/orders/markpaid/{id}']['put'], 200>, Order>>;
  'PUT /api/orders/delivered/{id}': Holds<
    Fits<AnswerOf<Api['/api/orders/delivered/{id}']['put'], 200>, Order>
  >;
  'DELETE /api/orders/delete/{id}': Holds<
    Fits<AnswerOf<Api['/api/orders/delete/{id}']['delete'], 200>, OrderDeleted>
  >;

  'POST /api/users/signup': Holds<Fits<AnswerOf<Api['/api/users/signup']['post'], 201>, UserInfo>>;
  'POST /api/users/signin': Holds<Fits<AnswerOf<Api['/api/users/signin']['post'], 200>, UserInfo>>;
  'PUT /api/users/profile': Holds<Fits<AnswerOf<Api['/api/users/profile']['put'], 200>, UserInfo>>;
  'POST /api/users/forgot-password': Holds<
    Fits<AnswerOf<Api['/api/users/forgot-password']['post'], 200>, Confirmation>
  >;
  'POST /api/users/reset-password body': Holds<
    Fits<ResetPasswordRequest, BodyOf<Api['/api/users/reset-password']['post']>>
  >;
  'POST /api/users/reset-password': Holds<
    Fits<AnswerOf<Api['/api/users/reset-password']['post'], 200>, Confirmation>
  >;
  'GET /api/users/all-users': Holds<Fits<AnswerOf<Api['/api/users/all-users']['get'], 200>, UserSummary[]>>;
  'GET /api/users/all-users query': Holds<Fits<UserListQuery, QueryOf<Api['/api/users/all-users']['get']>>>;
  'DELETE /api/users/delete/{id}': Holds<
    Fits<AnswerOf<Api['/api/users/delete/{id}']['delete'], 200>, Confirmation>
  >;
  'PUT /api/users/markadmin/{id}': Holds<
    Fits<AnswerOf<Api['/api/users/markadmin/{id}']['put'], 200>, UserSummary>
  >;

  'GET /api/wallet/all-wallets': Holds<Fits<AnswerOf<Api['/api/wallet/all-wallets']['get'], 200>, Wallet[]>>;
  'PUT /api/wallet/update-wallet body': Holds<
    Fits<UpdateWalletRequest, BodyOf<Api['/api/wallet/update-wallet']['put']>>
  >;
  'PUT /api/wallet/update-wallet': Holds<
    Fits<AnswerOf<Api['/api/wallet/update-wallet']['put'], 200>, Wallet>
  >;

  'GET /api/data/all-data': Holds<Fits<AnswerOf<Api['/api/data/all-data']['get'], 200>, SiteSettings[]>>;
  'PUT /api/data/update-data body': Holds<
    Fits<UpdateSiteSettingsRequest, BodyOf<Api['/api/data/update-data']['put']>>
  >;
  'PUT /api/data/update-data': Holds<Fits<AnswerOf<Api['/api/data/update-data']['put'], 200>, SiteSettings>>;

  'POST /api/media': Holds<Fits<AnswerOf<Api['/api/media']['post'], 201>, UploadImageResponse>>;

  /** Every refusal of every service has the one error shape. */
  'error answers': Holds<Fits<components['schemas']['ErrorResponseBody'], ErrorResponse>>;
}
