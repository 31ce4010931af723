// The package root. n8n loads the nodes, the triggers and the credentials from the "n8n" section of
// package.json; a brand server that calls the service without n8n uses the signing SDK below
// (docs/operations.md, "From your own server"). Each name here is the SDK; nothing else is.

// n8n's classes: the credentials, the action node, the two triggers and the events reader.
export { AffiliateTrackingApi } from './credentials/AffiliateTrackingApi.credentials';
export { GooglePlayApi } from './credentials/GooglePlayApi.credentials';
export { PaymentProviderApi } from './credentials/PaymentProviderApi.credentials';
export { PaymentWebhookSigningApi } from './credentials/PaymentWebhookSigningApi.credentials';
export { AffiliateTracking } from './nodes/AffiliateTracking/AffiliateTracking.node';
export { AffiliateTrackingTrigger } from './nodes/AffiliateTrackingTrigger/AffiliateTrackingTrigger.node';
export { PaymentWebhookTrigger } from './nodes/PaymentWebhookTrigger/PaymentWebhookTrigger.node';
export { PaymentProviderEvents } from './nodes/PaymentProviderEvents/PaymentProviderEvents.node';

// One call: a request of the open API, signed, ready for fetch.
export {
	buildSignedRequest,
	type SignedRequest,
	type SignedRequestInput,
} from './nodes/shared/transport/requestSigner';

// The wire request, the bytes that are sent and signed: built from an operation's parts under the
// API root, signed with either version, or read back from the options n8n hands a credential.
export {
	apiRoot,
	toWireRequest,
	type OperationRequest,
	type RequestParts,
	type WireRequest,
} from './nodes/shared/transport/wireRequest';
export { signWireRequest } from './nodes/shared/transport/requestSigner';
export {
	readWireRequest,
	type SignableRequestOptions,
} from './nodes/shared/transport/httpRequestAdapter';
export type { AffiliateTrackingCredentials } from './nodes/shared/transport/credentials';

// The two signatures and the strings they sign, for a server that builds its requests itself,
// and the encoding a path segment needs to be sent (and signed) byte for byte.
export {
	encodeRfc3986,
	signV1,
	signV2,
	v1StringToSign,
	v2StringToSign,
	type SignatureVersion,
	type V2SigningInput,
} from './nodes/shared/transport/signing';
