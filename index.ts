export { AffiliateTrackingApi } from './credentials/AffiliateTrackingApi.credentials';
export { AffiliateTracking } from './nodes/AffiliateTracking/AffiliateTracking.node';
export { AffiliateTrackingTrigger } from './nodes/AffiliateTrackingTrigger/AffiliateTrackingTrigger.node';
export * from './nodes/AffiliateTracking/transport/signing';
export {
	describeStringToSign,
	signRequestOptions,
	signWireRequest,
	toWireRequest,
	type AffiliateTrackingCredentials,
	type WireRequest,
} from './nodes/AffiliateTracking/transport/requestSigner';
