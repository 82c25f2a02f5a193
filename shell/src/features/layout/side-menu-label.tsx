/** The drawer button's content, the same on the stand-in and on the real trigger. */
export function SideMenuLabel() {
  return (
    <>
      <span aria-hidden="true">☰</span> All
    </>
  );
}
