import type { BreadcrumbView } from '../../src/shared/props';
import { Breadcrumb } from './Breadcrumb';

/** The top of a category page, listing or gallery: trail, title with its emoji, description. */
export function CategoryHeader({
  breadcrumbs,
  title,
  description,
  label,
}: {
  breadcrumbs: BreadcrumbView[];
  title: string;
  description: string;
  label: string;
}) {
  return (
    <>
      <Breadcrumb items={breadcrumbs} label={label} />
      <h1>{title}</h1>
      <p className="lead">{description}</p>
    </>
  );
}
