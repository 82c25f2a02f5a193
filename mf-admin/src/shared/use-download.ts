import { ApiError, endSession, genericFailure, serverMessage, userInfoAtom } from '@shop/state';
import { useAction } from '@shop/ui';
import { useAtomValue } from 'jotai';

/** The name a `Content-Disposition: attachment; filename="…"` gives, if any. */
export function fileNameOf(disposition: string | null): string | undefined {
  return disposition?.match(/filename="([^"]+)"/)?.[1];
}

/** The server's `message` of a refused download, else the status (as the JSON client says it). */
async function refusal(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => undefined);
  return new ApiError(serverMessage(body) ?? genericFailure(response.status), response.status);
}

/**
 * A file the API answers (an admin's export), fetched with the signed-in admin's token and saved under
 * the name its `Content-Disposition` gives (else `fallbackName`). The JSON client cannot take it: it
 * reads answers as JSON. A refusal is an error toast with the server's message (useAction); a 401 ends
 * the session as every call's does. `busy` while it downloads.
 */
export function useDownload(): {
  busy: boolean;
  download: (path: string, fallbackName: string) => Promise<void>;
} {
  const user = useAtomValue(userInfoAtom);
  const { busy, run } = useAction();

  const download = (path: string, fallbackName: string) =>
    run(async () => {
      const response = await fetch(path, {
        headers: user?.token ? { Authorization: `Bearer ${user.token}` } : {},
      });
      if (!response.ok) {
        if (response.status === 401) endSession();
        throw await refusal(response);
      }
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = fileNameOf(response.headers.get('Content-Disposition')) ?? fallbackName;
      document.body.append(link);
      link.click();
      link.remove();
      // After the click has handed the file to the browser's download.
      setTimeout(() => URL.revokeObjectURL(url), 0);
    });

  return { busy, download };
}
