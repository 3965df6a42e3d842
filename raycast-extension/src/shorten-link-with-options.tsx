import { usePromise } from "@raycast/utils";
import { Form } from "@raycast/api";
import { LinkForm } from "./components/LinkForm";
import { findUrl } from "./ui/url-source";

export default function Command() {
  // Pre-filled like Shorten Link: selection, browser tab, then clipboard.
  const { data, isLoading } = usePromise(async () => {
    const found = await findUrl(undefined);
    return "url" in found ? found.url : "";
  });
  if (isLoading) return <Form isLoading />;
  return <LinkForm initialUrl={data ?? ""} />;
}
