/*
 * bcryptprimitives.dll for Wine 8.0, which lacks it: the Go runtime of
 * Go 1.22 and later calls ProcessPrng at start-up. This shim fills the
 * buffer through advapi32's SystemFunction036 (RtlGenRandom), which Wine
 * has. Built by .ci/wine-smoke with Debian's x86_64-w64-mingw32-gcc; used
 * for the Wine smoke test only, never shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
