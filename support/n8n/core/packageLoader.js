// @ts-check
'use strict';
/**
 * This package as n8n loads a community package: from its built `dist/`, by n8n's own
 * PackageDirectoryLoader, with its node types looked up by the names n8n gives them. n8n-core
 * needs `reflect-metadata` loaded first (jest's setupFiles, the benchmarks' first line).
 */
/** @import { IDataObject, INodeType, INodeTypes, IVersionedNodeType } from 'n8n-workflow' */
const path = require('node:path');
const { PackageDirectoryLoader } = require('n8n-core');
const { NodeHelpers } = require('n8n-workflow');

/** The package root: this file's parent folder, whoever loads it. */
const PACKAGE_DIR = path.resolve(__dirname, '..', '..', '..');
const PACKAGE_NAME = 'n8n-nodes-affiliate-tracking';
const NODE_TYPE = `${PACKAGE_NAME}.affiliateTracking`;
const TRIGGER_TYPE = `${PACKAGE_NAME}.affiliateTrackingTrigger`;
const CREDENTIAL_TYPE = 'affiliateTrackingApi';

/** @type {Promise<PackageDirectoryLoader> | undefined} */
let loading;

/**
 * The built package as n8n loads it (once per test file).
 * @returns {Promise<PackageDirectoryLoader>}
 */
async function loadPackage() {
	loading ??= (async () => {
		const loader = new PackageDirectoryLoader(PACKAGE_DIR);
		await loader.loadAll();
		return loader;
	})();
	return await loading;
}

/** @implements {INodeTypes} */
class PackageNodeTypes {
	/**
	 * @param {PackageDirectoryLoader} loader
	 * @param {Record<string, INodeType | IVersionedNodeType>} [otherTypes]
	 */
	constructor(loader, otherTypes = {}) {
		/** @private @readonly */
		this.loader = loader;
		/** @private @readonly */
		this.otherTypes = otherTypes;
	}

	/** @param {string} nodeType @returns {INodeType | IVersionedNodeType} */
	getByName(nodeType) {
		const other = this.otherTypes[nodeType];
		if (other) return other;
		const shortName = nodeType.startsWith(`${PACKAGE_NAME}.`)
			? nodeType.slice(PACKAGE_NAME.length + 1)
			: nodeType;
		const entry = this.loader.nodeTypes[shortName];
		if (!entry) throw new Error(`Unknown node type ${nodeType}`);
		return entry.type;
	}

	/** @param {string} nodeType @param {number} [version] @returns {INodeType} */
	getByNameAndVersion(nodeType, version) {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	/** @returns {IDataObject} */
	getKnownTypes() {
		return {};
	}
}

module.exports = {
	NODE_TYPE,
	TRIGGER_TYPE,
	CREDENTIAL_TYPE,
	loadPackage,
	PackageNodeTypes,
};
