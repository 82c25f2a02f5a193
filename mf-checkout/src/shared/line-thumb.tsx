/** The picture of a cart or order line, `size` px square; a line without one keeps its place with an empty box. */
export function LineThumb({
  image,
  name,
  size,
  className,
  lazy = false,
}: {
  /** The product's first image, or ''. */
  image: string;
  /** The product's name, the picture's text. */
  name: string;
  size: number;
  className: string | undefined;
  /** Loads the picture only as it nears the viewport. */
  lazy?: boolean;
}) {
  return image ? (
    <img
      src={image}
      alt={name}
      width={size}
      height={size}
      loading={lazy ? 'lazy' : undefined}
      className={className}
    />
  ) : (
    <span className={className} aria-hidden="true" />
  );
}
