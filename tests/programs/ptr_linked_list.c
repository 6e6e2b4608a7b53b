/* a linked list in a global array: a self-referential initialiser, pointers loaded from
   memory compared with null, and a link rewritten */
struct node {
    int v;
    struct node *next;
};

struct node nodes[5] = {{3, &nodes[2]}, {7, 0}, {1, &nodes[4]}, {9, &nodes[1]}, {4, &nodes[3]}};
struct node *head = &nodes[0];

int main(void)
{
    int s = 0;
    for (struct node *p = head; p; p = p->next)
        s = s * 10 + p->v;
    nodes[2].next = nodes[4].next; /* unlink nodes[4] */
    head = &nodes[2];
    for (struct node *p = head; p; p = p->next)
        s = s * 3 + p->v;
    return s;
}
