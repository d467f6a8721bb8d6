/**
 * What both HTTP services share, the live API ({@code api}) and the archive service
 * ({@code archive.service}): it depends on neither, so the bolt's firewall between them holds.
 */
package io.jolt.stream.http;
