// Package exchange moves DynamoDB items in and out of files: the layout of
// DynamoDB's export to S3 (manifests and gzip-compressed data files, in
// DynamoDB JSON or Amazon Ion text, full or incremental), and the inputs
// of ImportTable (CSV, DynamoDB JSON, Ion; uncompressed, GZIP or ZSTD).
//
// Objects live in a Bucket: a folder standing for an S3 bucket
// (FolderBucket) or S3 itself, or anything speaking its API (S3Bucket).
// Items are attr.Items; the package knows no table, client or server, so
// the command-line tools (dynago dump and load, through the ordinary API)
// and a server's own export and import can share it.
//
// Sources of the formats (AWS's developer guide):
//   - "DynamoDB table export output format" (S3DataExport.Output): the
//     export's layout, manifest-summary.json and manifest-files.json, the
//     data files, the Ion type mapping, and the incremental export's lines.
//   - "Amazon S3 import formats for DynamoDB" (S3DataImport.Format) and the
//     API reference's InputFormatOptions and CsvOptions: the import inputs.
package exchange
