// The package root. n8n loads the nodes, the triggers and the credentials from the "n8n" section of
// package.json; brand servers that call the service directly use the signing API below.
export { AffiliateTrackingApi } from './credentials/AffiliateTrackingApi.credentials';
export { AffiliateTracking } from './nodes/AffiliateTracking/AffiliateTracking.node';
export { AffiliateTrackingTrigger } from './nodes/AffiliateTrackingTrigger/AffiliateTrackingTrigger.node';
export { PaymentWebhookSigningApi } from './credentials/PaymentWebhookSigningApi.credentials';
export { PaymentWebhookTrigger } from './nodes/PaymentWebhookTrigger/PaymentWebhookTrigger.node';
export * from './nodes/shared/transport/signing';
export type { AffiliateTrackingCredentials } from './nodes/shared/transport/credentials';
export {
	readWireRequest,
	type SignableRequestOptions,
} from './nodes/shared/transport/httpRequestAdapter';
export {
	buildSignedRequest,
	describeStringToSign,
	signRequestOptions,
	signWireRequest,
	type SignedRequest,
	type SignedRequestInput,
} from './nodes/shared/transport/requestSigner';
export {
	apiRoot,
	toWireRequest,
	type OperationRequest,
	type RequestParts,
	type WireRequest,
} from './nodes/shared/transport/wireRequest';
