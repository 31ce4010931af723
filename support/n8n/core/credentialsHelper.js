// @ts-check
'use strict';
/**
 * The credentials helper n8n-core asks for a node's credentials: test credentials by credential
 * id, requests signed through the credential type's own authenticate().
 */
/**
 * @import { PackageDirectoryLoader } from 'n8n-core'
 * @import {
 *   ICredentialDataDecryptedObject, ICredentials, ICredentialType, IHttpRequestOptions,
 *   INodeCredentialsDetails, INodeProperties, IWorkflowExecuteAdditionalData
 * } from 'n8n-workflow'
 */
const { ICredentialsHelper } = require('n8n-workflow');

/** Hands the engine test credentials by credential id, signing through the credential type's own authenticate(). */
class TestCredentialsHelper extends ICredentialsHelper {
	/**
	 * @param {PackageDirectoryLoader} loader
	 * @param {Record<string, ICredentialDataDecryptedObject>} credentials
	 */
	constructor(loader, credentials) {
		super();
		/** @private @readonly */
		this.loader = loader;
		/** @private @readonly */
		this.credentials = credentials;
	}

	/** @private @param {string} typeName @returns {ICredentialType} */
	credentialType(typeName) {
		const entry = this.loader.credentialTypes[typeName];
		if (!entry) throw new Error(`Unknown credential type ${typeName}`);
		return entry.type;
	}

	/** @returns {string[]} */
	getParentTypes() {
		return [];
	}

	/** @returns {boolean} */
	isCredentialUsableByNode() {
		return true;
	}

	/**
	 * @param {ICredentialDataDecryptedObject} credentials @param {string} typeName
	 * @param {IHttpRequestOptions} requestOptions @returns {Promise<IHttpRequestOptions>}
	 */
	async authenticate(credentials, typeName, requestOptions) {
		const { authenticate } = this.credentialType(typeName);
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		// A generic one (a Bearer header): its `={{$credentials.field}}` filled in, as n8n does.
		if (authenticate?.type !== 'generic') throw new Error(`${typeName} authenticates no request`);
		/** @param {unknown} value @returns {string} */
		const filled = (value) =>
			typeof value === 'string' && value.startsWith('=')
				? value
						.slice(1)
						.replace(/\{\{\s*\$credentials\.(\w+)\s*\}\}/g, (_, field) =>
							String(credentials[field] ?? ''),
						)
				: String(value);
		const headers = Object.fromEntries(
			Object.entries(authenticate.properties.headers ?? {}).map(([name, value]) => [
				name,
				filled(value),
			]),
		);
		return { ...requestOptions, headers: { ...requestOptions.headers, ...headers } };
	}

	/** @returns {Promise<undefined>} */
	async preAuthentication() {}

	/** @returns {Promise<undefined>} */
	async runPreAuthentication() {}

	/** @returns {Promise<ICredentials>} */
	async getCredentials() {
		throw new Error('not used by these tests');
	}

	/**
	 * @param {IWorkflowExecuteAdditionalData} _additionalData
	 * @param {INodeCredentialsDetails} nodeCredentials
	 * @returns {Promise<ICredentialDataDecryptedObject>}
	 */
	async getDecrypted(_additionalData, nodeCredentials) {
		const data = this.credentials[nodeCredentials.id ?? ''];
		if (!data) throw new Error(`No test credential with id ${nodeCredentials.id}`);
		return { ...data };
	}

	/** @returns {Promise<void>} */
	async updateCredentials() {}

	/** @returns {Promise<void>} */
	async updateCredentialsOauthTokenData() {}

	/** @param {string} typeName @returns {INodeProperties[]} */
	getCredentialsProperties(typeName) {
		return this.credentialType(typeName).properties;
	}
}

module.exports = { TestCredentialsHelper };
