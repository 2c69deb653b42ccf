import { Card, CardContent, CardHeader } from "~/components/ui/card";

/**
 * A page of one narrow card (a public form, a mailed link's outcome): what comes above the card
 * (a way back), its title, its content. With `icon` (even null) the title is a row led by it.
 */
export function CardPage({
  title,
  icon,
  above,
  children,
}: {
  title: React.ReactNode;
  icon?: React.ReactNode;
  above?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div className="container mx-auto px-4 py-10">
      {above}
      <Card className="mx-auto max-w-xl">
        <CardHeader>
          <h1
            className={
              icon === undefined
                ? "text-2xl font-semibold"
                : "flex items-center gap-3 text-2xl font-semibold"
            }
          >
            {icon}
            {title}
          </h1>
        </CardHeader>
        <CardContent className="space-y-4">{children}</CardContent>
      </Card>
    </div>
  );
}
